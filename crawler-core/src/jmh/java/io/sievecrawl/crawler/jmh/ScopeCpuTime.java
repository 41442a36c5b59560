package io.sievecrawl.crawler.jmh;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.html.LinkExtractor;
import io.sievecrawl.crawler.scope.ScopePolicy;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What deciding whether a link is in scope costs, in thread CPU time: the links of 1,000 javadoc pages (each page's
 * distinct links, as a crawl offers them, about 130,000) through {@link ScopePolicy#rejection} with the default
 * settings, after {@code warmup} passes, {@code passes} times; prints the median and the minimum per link and per page.
 * Every link of the javadoc is in scope, so each takes the whole way: the site, the patterns, the trap guard.
 *
 * <p>Run: {@code mvn -q -B -pl crawler-core -am -Pjmh-crawler process-test-classes
 * -Djmh.main=io.sievecrawl.crawler.jmh.ScopeCpuTime -Djmh.args="30 20"}
 */
public final class ScopeCpuTime {
  private ScopeCpuTime() {}

  public static void main(String[] args) {
    int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    int passes = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    List<JavadocCorpus.Page> pages = JavadocCorpus.sample(LinkExtractorBenchmark.PAGES);
    LinkExtractor extractor = new LinkExtractor(new UrlNormalizer(2048, true), true, "sievecrawl");
    List<Url> links = new ArrayList<>();
    for (JavadocCorpus.Page page : pages) {
      links.addAll(extractor.extract(page.body(), null, page.link(), null).urls());
    }
    ScopePolicy scope = new ScopePolicy(CrawlSettings.builder().build(),
        List.of(Url.ofCanonical(JavadocCorpus.SITE)));
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    List<Double> perLink = new ArrayList<>();
    long rejected = 0;
    for (int pass = 0; pass < warmup + passes; pass++) {
      long start = threads.getCurrentThreadCpuTime();
      for (Url link : links) {
        if (scope.rejection(link, 1) != null) {
          rejected++;
        }
      }
      long end = threads.getCurrentThreadCpuTime();
      if (pass >= warmup) {
        perLink.add((end - start) / (double) links.size());
      }
    }
    double median = perLink.stream().sorted().toList().get(perLink.size() / 2);
    double min = perLink.stream().mapToDouble(d -> d).min().orElseThrow();
    System.out.printf(Locale.ROOT, "%,d links of %d pages (%d rejected), %d passes after %d%n", links.size(),
        pages.size(), rejected, passes, warmup);
    System.out.printf(Locale.ROOT, "ScopePolicy.rejection   median %6.1f ns a link (%5.1f us a page)  min %6.1f ns%n",
        median, median * links.size() / pages.size() / 1e3, min);
  }
}
