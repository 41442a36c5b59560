package io.sievecrawl.crawler.jmh;

import io.sievecrawl.crawler.html.HtmlElementsForBenchmarks;
import io.sievecrawl.crawler.html.LinkExtractor;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jsoup.parser.Parser;

/**
 * {@link LinkExtractorBenchmark}'s question answered in thread CPU time instead of wall-clock time, for a machine
 * shared with other work (where a descheduled thread inflates JMH's scores): after {@code warmup} passes over the
 * same 1,000 javadoc pages, the CPU time of each of {@code passes} passes, per page, for the extractor, for the
 * extractor with the page's text ({@code --text}), for jsoup's DOM parse alone, for the crawler's parse alone (its tree
 * builder, without text) and for jsoup's tokenizer alone (no tree: the floor of a parse with jsoup), alternating;
 * prints the median and the minimum. The last two read the pages decoded beforehand.
 *
 * <p>Run: {@code mvn -q -B -pl crawler-core -am -Pjmh-crawler process-test-classes
 * -Djmh.main=io.sievecrawl.crawler.jmh.LinkExtractorCpuTime -Djmh.args="30 20"}
 */
public final class LinkExtractorCpuTime {
  private LinkExtractorCpuTime() {}

  public static void main(String[] args) {
    int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    int passes = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    List<JavadocCorpus.Page> pages = JavadocCorpus.sample(LinkExtractorBenchmark.PAGES);
    LinkExtractor extractor = new LinkExtractor(new UrlNormalizer(2048, true), true, "sievecrawl");
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    List<Double> extract = new ArrayList<>();
    List<Double> withText = new ArrayList<>();
    List<Double> parse = new ArrayList<>();
    List<Double> crawlerParse = new ArrayList<>();
    List<Double> tokenizer = new ArrayList<>();
    String[] decoded = pages.stream().map(p -> new String(p.body(), StandardCharsets.UTF_8)).toArray(String[]::new);
    long sink = 0;
    for (int pass = 0; pass < warmup + passes; pass++) {
      long start = threads.getCurrentThreadCpuTime();
      for (JavadocCorpus.Page page : pages) {
        sink += extractor.extract(page.body(), null, page.link(), null).urls().size();
      }
      long texts = threads.getCurrentThreadCpuTime();
      for (JavadocCorpus.Page page : pages) {
        sink += extractor.extract(page.body(), null, page.link(), null, true).text().length();
      }
      long middle = threads.getCurrentThreadCpuTime();
      for (JavadocCorpus.Page page : pages) {
        sink += Parser.htmlParser().parseInput(new String(page.body(), StandardCharsets.UTF_8), page.url())
            .childNodeSize();
      }
      long end = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < decoded.length; i++) {
        sink += HtmlElementsForBenchmarks.parse(decoded[i], pages.get(i).url(), false).childNodeSize();
      }
      long parsed = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < decoded.length; i++) {
        sink += HtmlElementsForBenchmarks.tokenize(decoded[i], pages.get(i).url());
      }
      long tokenized = threads.getCurrentThreadCpuTime();
      if (pass >= warmup) {
        extract.add((texts - start) / 1e3 / pages.size());
        withText.add((middle - texts) / 1e3 / pages.size());
        parse.add((end - middle) / 1e3 / pages.size());
        crawlerParse.add((parsed - end) / 1e3 / pages.size());
        tokenizer.add((tokenized - parsed) / 1e3 / pages.size());
      }
    }
    System.out.printf(Locale.ROOT, "CPU per page over %d passes of %d pages after %d warm-up passes (%d)%n", passes,
        pages.size(), warmup, sink % 10);
    System.out.printf(Locale.ROOT, "LinkExtractor.extract   median %7.1f us  min %7.1f us%n", median(extract),
        extract.stream().mapToDouble(d -> d).min().orElseThrow());
    System.out.printf(Locale.ROOT, "... with the text       median %7.1f us  min %7.1f us  (%.3fx)%n",
        median(withText), withText.stream().mapToDouble(d -> d).min().orElseThrow(),
        median(withText) / median(extract));
    System.out.printf(Locale.ROOT, "jsoup DOM parse (UTF-8) median %7.1f us  min %7.1f us%n", median(parse),
        parse.stream().mapToDouble(d -> d).min().orElseThrow());
    System.out.printf(Locale.ROOT, "crawler parse, no text  median %7.1f us  min %7.1f us%n", median(crawlerParse),
        crawlerParse.stream().mapToDouble(d -> d).min().orElseThrow());
    System.out.printf(Locale.ROOT, "jsoup tokenizer alone   median %7.1f us  min %7.1f us%n", median(tokenizer),
        tokenizer.stream().mapToDouble(d -> d).min().orElseThrow());
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
