package io.sievecrawl.sieve.jmh;

import io.sievecrawl.sieve.UrlCorpus;
import java.util.stream.IntStream;

/** Precomputed benchmark inputs from {@link UrlCorpus}; built in setup code, never in a measured loop. */
final class Urls {
  /** The corpus every benchmark draws from: distinct indexes give distinct URLs. */
  static final UrlCorpus CORPUS = new UrlCorpus(1);

  private Urls() {}

  /** The origin of a URL, {@code scheme://host}: the queue a frontier puts it in. */
  static String origin(String url) {
    int slash = url.indexOf('/', url.indexOf("//") + 2);
    return slash < 0 ? url : url.substring(0, slash);
  }

  /** URLs number {@code from}, {@code from + 1}, ..., {@code from + count - 1}, generated on all cores. */
  static String[] range(long from, int count) {
    String[] urls = new String[count];
    IntStream.range(0, count).parallel().forEach(i -> urls[i] = CORPUS.url(from + i));
    return urls;
  }

  /** URLs with the given indexes, each a new String (nothing shared with strings made earlier). */
  static String[] at(long[] indexes) {
    String[] urls = new String[indexes.length];
    IntStream.range(0, indexes.length).parallel().forEach(i -> urls[i] = CORPUS.url(indexes[i]));
    return urls;
  }

  /** Adds URLs number 0 to {@code count - 1} to {@code target}, in parallel; returns them if {@code keep}. */
  static String[] prefill(Structure.Target target, int count, boolean keep) {
    String[] kept = keep ? new String[count] : null;
    IntStream.range(0, count).parallel().forEach(i -> {
      String url = CORPUS.url(i);
      target.add(url);
      if (kept != null) {
        kept[i] = url;
      }
    });
    return kept;
  }
}
