package io.sievecrawl.crawler.url;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The CPU time of the normalizer's general path ({@link UrlNormalizer#resolveOrNull(String, String)}, which a page's
 * resolver falls back to for every reference its fast path declines), per reference, on references made of what
 * real pages hold beyond the plain case: escapes, non-ASCII paths and queries, international and numeric hosts,
 * backslashes, session ids, scheme-relative and absolute links. Thread CPU time, median and minimum over passes.
 * In the {@code url} package, whose own string forms it calls.
 *
 * <p>Run: {@code mvn -q -B -pl crawler-core -am -Pjmh-crawler process-test-classes
 * -Djmh.main=io.sievecrawl.crawler.url.UrlResolveCpuTime -Djmh.args="30 20"}
 */
public final class UrlResolveCpuTime {
  private static final String BASE = "https://www.example.com/docs/guide/page.html?lang=en";
  private static final List<String> PIECES = List.of("a%20b", "caf\u00e9", "%7Euser", "x?q=\u00fc&r=1", "..\\img",
      "//b\u00fccher.example/p", "http://XN--FA-HIA.de/", "https://Example.COM:443/a/./b", "//127.1/",
      "p;jsessionid=0123456789ABCDEF0123", "?PHPSESSID=abc&x=1", "//[::1]:8080/", "\u65e5\u672c\u8a9e/",
      "http://user:pw@example.org/", "#top", "%2e%2e/x", "a b", "//example.com./x", "?q=it's");

  private UrlResolveCpuTime() {}

  public static void main(String[] args) {
    int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    int passes = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    UrlNormalizer normalizer = new UrlNormalizer(2048, true);
    SplittableRandom random = new SplittableRandom(1);
    List<String> references = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      references.add(PIECES.get(random.nextInt(PIECES.size())) + (random.nextBoolean() ? "" : "/" + i));
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    List<Double> perReference = new ArrayList<>();
    long sink = 0;
    for (int pass = 0; pass < warmup + passes; pass++) {
      long start = threads.getCurrentThreadCpuTime();
      for (String reference : references) {
        String url = normalizer.resolveOrNull(BASE, reference);
        sink += url == null ? 0 : url.length();
      }
      if (pass >= warmup) {
        perReference.add((threads.getCurrentThreadCpuTime() - start) / 1e3 / references.size());
      }
    }
    Collections.sort(perReference);
    System.out.printf(Locale.ROOT, "general path, CPU per reference over %d passes of %d: median %.3f us,"
        + " min %.3f us (%d)%n", passes, references.size(), perReference.get(passes / 2), perReference.get(0), sink);
  }
}
