package io.sievecrawl.sieve.redis;

import java.util.regex.Pattern;

/**
 * The names of a shared crawl's keys (see the package notes): each carries the crawl's name as a hash tag, so that a
 * script touches keys of one hash slot.
 */
final class CrawlKeys {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");

  private final String name;

  CrawlKeys(String name) {
    this.name = name;
  }

  /** The key {@code suffix} of the crawl {@code name}. */
  static String key(String name, String suffix) {
    return "sievecrawl:{" + name + "}:" + suffix;
  }

  /** @throws SharedCrawlException unless {@code name} is 1 to 100 letters, digits, dots, dashes or underscores */
  static void checkName(String name) throws SharedCrawlException {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new SharedCrawlException(SharedCrawlException.Kind.NO_SUCH_CRAWL, "a crawl name is 1 to 100 letters,"
          + " digits, dots, dashes or underscores, not '" + name + "'");
    }
  }

  /** This crawl's key {@code suffix}. */
  String key(String suffix) {
    return key(name, suffix);
  }

  /** The origin's list of waiting tasks. */
  String list(String origin) {
    return key("o:" + origin);
  }

  /** The shard's line of origins waiting to be checked out. */
  String line(int shard) {
    return key("line:" + shard);
  }

  /** The shard's set of origins whose lists may hold tasks. */
  String origins(int shard) {
    return key("origins:" + shard);
  }

  /** The shard's hash of claimed tasks not acknowledged yet. */
  String flight(int shard) {
    return key("flight:" + shard);
  }

  /** The shard's lease: the agent that owns it, with an expiry. */
  String lease(int shard) {
    return key("lease:" + shard);
  }

  /** The field of the counters hash that counts the shard's open tasks (waiting or claimed). */
  static String openField(int shard) {
    return "open:" + shard;
  }

  /** The exact store's bucket {@code bucket}: a set of fingerprints. */
  String bucket(long bucket) {
    return key("x:" + bucket);
  }
}
