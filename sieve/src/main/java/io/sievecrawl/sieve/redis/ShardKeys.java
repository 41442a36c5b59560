package io.sievecrawl.sieve.redis;

/** The names of a shared crawl's keys that belong to one shard or one origin (see the package notes). */
final class ShardKeys {
  private final RedisCrawl crawl;

  ShardKeys(RedisCrawl crawl) {
    this.crawl = crawl;
  }

  /** The origin's list of waiting tasks. */
  String list(String origin) {
    return crawl.key("o:" + origin);
  }

  /** The shard's line of origins waiting to be checked out. */
  String line(int shard) {
    return crawl.key("line:" + shard);
  }

  /** The shard's set of origins whose lists may hold tasks. */
  String origins(int shard) {
    return crawl.key("origins:" + shard);
  }

  /** The shard's hash of claimed tasks not acknowledged yet. */
  String flight(int shard) {
    return crawl.key("flight:" + shard);
  }

  /** The shard's lease: the agent that owns it, with an expiry. */
  String lease(int shard) {
    return crawl.key("lease:" + shard);
  }
}
