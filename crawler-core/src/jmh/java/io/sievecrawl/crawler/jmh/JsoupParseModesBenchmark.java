package io.sievecrawl.crawler.jmh;

import io.sievecrawl.crawler.html.HtmlElementsForBenchmarks;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;
import org.jsoup.parser.StreamParser;
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
 * Which jsoup parse of an HTML page is cheapest: the HTML5 DOM parse, the {@link StreamParser} (the same tree
 * builder, elements handed out as they complete) keeping the tree or removing each element once seen, or the
 * crawler's ({@code HtmlElements}: jsoup's tokenizer with its plain tree builder, which finds the same links), and
 * jsoup's tokenizer alone with no tree (the floor of any jsoup parse). Over
 * the 1,000 javadoc pages of {@link LinkExtractorBenchmark}, decoded beforehand; the score is per page.
 *
 * <p>Run: {@code mvn -q -B -pl crawler-core -am -Pjmh-crawler process-test-classes -Djmh.args="JsoupParseModesBenchmark"}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
public class JsoupParseModesBenchmark {
  private String[] pages;

  @Setup
  public void setUp() {
    List<JavadocCorpus.Page> sample = JavadocCorpus.sample(LinkExtractorBenchmark.PAGES);
    pages = sample.stream().map(p -> new String(p.body(), StandardCharsets.UTF_8)).toArray(String[]::new);
  }

  @Benchmark
  @OperationsPerInvocation(LinkExtractorBenchmark.PAGES)
  public int dom() {
    int n = 0;
    for (String page : pages) {
      n += Parser.htmlParser().parseInput(page, JavadocCorpus.SITE).childNodeSize();
    }
    return n;
  }

  @Benchmark
  @OperationsPerInvocation(LinkExtractorBenchmark.PAGES)
  public int crawlerParse() {
    int n = 0;
    for (String page : pages) {
      n += HtmlElementsForBenchmarks.parse(page, JavadocCorpus.SITE).childNodeSize();
    }
    return n;
  }

  /** jsoup's tokenizer alone, no tree: the floor of a parse with jsoup. */
  @Benchmark
  @OperationsPerInvocation(LinkExtractorBenchmark.PAGES)
  public long tokenizerOnly() {
    long n = 0;
    for (String page : pages) {
      n += HtmlElementsForBenchmarks.tokenize(page, JavadocCorpus.SITE);
    }
    return n;
  }

  @Benchmark
  @OperationsPerInvocation(LinkExtractorBenchmark.PAGES)
  public int streamKeepingTheTree() {
    return stream(false);
  }

  @Benchmark
  @OperationsPerInvocation(LinkExtractorBenchmark.PAGES)
  public int streamRemovingEachElement() {
    return stream(true);
  }

  private int stream(boolean remove) {
    int n = 0;
    for (String page : pages) {
      StreamParser parser = new StreamParser(Parser.htmlParser()).parse(new StringReader(page), JavadocCorpus.SITE);
      Iterator<Element> elements = parser.iterator();
      while (elements.hasNext()) {
        n += elements.next().attributesSize();
        if (remove) {
          elements.remove();
        }
      }
    }
    return n;
  }
}
