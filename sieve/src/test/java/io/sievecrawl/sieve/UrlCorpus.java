package io.sievecrawl.sieve;

import java.util.SplittableRandom;

/**
 * Deterministic, realistic URLs: 40 to 120 characters, a few thousand shared hosts and shared path prefixes, the
 * index encoded in each so that different indexes give different URLs.
 */
public final class UrlCorpus {
  private static final String[] SCHEMES = {"https://", "https://", "https://", "http://"};
  private static final String[] SECTIONS = {
      "news", "blog", "products", "category", "wiki", "docs", "forum/thread", "tag", "users", "articles/2024",
      "store/item", "search", "events/calendar", "help/faq", "media/video", "en/catalog"};
  private static final String[] WORDS = {
      "spring", "sale", "review", "guide", "how-to", "garden", "electric", "bike", "coffee", "travel", "winter",
      "recipe", "camera", "python", "release-notes", "football", "weather", "housing", "museum", "jazz"};
  private static final String[] TLDS = {".com", ".org", ".net", ".de", ".co.uk", ".io", ".fr", ".info"};

  private final long seed;
  private final int hosts;

  /** URLs over {@code hosts} distinct host names; different seeds give disjoint-looking corpora. */
  public UrlCorpus(long seed, int hosts) {
    this.seed = seed;
    this.hosts = hosts;
  }

  /** URLs over 5,000 hosts. */
  public UrlCorpus(long seed) {
    this(seed, 5_000);
  }

  /** The URL number {@code index}; distinct indexes give distinct URLs. */
  public String url(long index) {
    StringBuilder out = new StringBuilder(128);
    appendUrl(index, out);
    return out.toString();
  }

  /** Appends URL number {@code index} to {@code out}, for callers that reuse one builder. */
  public void appendUrl(long index, StringBuilder out) {
    SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
    int host = random.nextInt(hosts);
    out.append(SCHEMES[host & 3]);
    if ((host & 4) == 0) {
      out.append("www.");
    }
    out.append(WORDS[host % WORDS.length]).append('-').append(host).append(TLDS[host % TLDS.length]).append('/');
    out.append(SECTIONS[random.nextInt(SECTIONS.length)]).append('/');
    int words = 1 + random.nextInt(6);
    for (int i = 0; i < words; i++) {
      out.append(WORDS[random.nextInt(WORDS.length)]).append(i + 1 < words ? '-' : '/');
    }
    out.append(Long.toString(index, 36));
    switch (random.nextInt(4)) {
      case 0 -> out.append(".html");
      case 1 -> out.append("?page=").append(1 + random.nextInt(40));
      case 2 -> out.append("/?ref=home&lang=").append(random.nextBoolean() ? "en" : "de");
      default -> out.append('/');
    }
  }
}
