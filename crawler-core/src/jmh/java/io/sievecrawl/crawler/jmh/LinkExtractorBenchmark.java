package io.sievecrawl.crawler.jmh;

import io.sievecrawl.crawler.html.LinkExtractor;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jsoup.Jsoup;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Warm cost of finding the links of one real page: {@link LinkExtractor#extract} over 1,000 pages spread evenly over
 * the OpenJDK 17 javadoc ({@link JavadocCorpus}), as the crawler calls it (no charset from the server, as nginx
 * sends none), against jsoup's DOM parse of the same bytes with the charset given (the parse alone, no links).
 * Each invocation handles all 1,000 pages; the score is per page.
 *
 * <p>Run: {@code crawler-core/src/bench/javadoc-corpus.sh && mvn -q -B -pl crawler-core -am -Pjmh-crawler
 * process-test-classes -Djmh.args="LinkExtractorBenchmark"}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
public class LinkExtractorBenchmark {
  static final int PAGES = 1_000;

  private List<JavadocCorpus.Page> pages;
  private LinkExtractor extractor;

  @Setup
  public void setUp() {
    pages = JavadocCorpus.sample(PAGES);
    extractor = new LinkExtractor(new UrlNormalizer(2048, true), true, "sievecrawl");
  }

  @Benchmark
  @OperationsPerInvocation(PAGES)
  public int extract() {
    int links = 0;
    for (JavadocCorpus.Page page : pages) {
      links += extractor.extract(page.body(), null, page.link(), null).links().size();
    }
    return links;
  }

  @Benchmark
  @OperationsPerInvocation(PAGES)
  public int jsoupDomParse() {
    int nodes = 0;
    for (JavadocCorpus.Page page : pages) {
      nodes += Jsoup.parse(new String(page.body(), StandardCharsets.UTF_8), page.url()).childNodeSize();
    }
    return nodes;
  }
}
