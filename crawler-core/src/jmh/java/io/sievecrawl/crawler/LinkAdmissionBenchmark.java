package io.sievecrawl.crawler;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.html.LinkExtractor;
import io.sievecrawl.crawler.scope.ScopePolicy;
import io.sievecrawl.crawler.url.ReferenceResolver;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import io.sievecrawl.sieve.Sieve;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
 * CPU per link on a page of 1,000 links, as {@code sievecrawl bench --fan-out 1000} serves them (5,000 pages under
 * {@code /section/}, linked absolute, relative, with a fragment or an empty query): from the raw href to admitted
 * or dropped, i.e. resolved and normalized, checked against the crawl's scope and offered to the sieve, which has
 * seen every page already (the steady state of that crawl, where nearly every link is a duplicate).
 * {@code hrefToAdmittedOrDropped} takes the path the crawler takes now (a page's {@link ReferenceResolver}, one
 * {@link Url} per distinct href); {@code extractPage} is the whole {@link LinkExtractor#extract} of the page, jsoup
 * parse included, per link. The String path of before (base parsed again for every link, the general normalizer,
 * the URL string split again for scope), measured until {@code UrlNormalizer}'s string forms became internal to
 * its package, is in the README's figures.
 *
 * <p>Run: {@code mvn -q -B -pl crawler-core -am -Pjmh-crawler process-test-classes -Djmh.args="LinkAdmissionBenchmark"}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
public class LinkAdmissionBenchmark {
  static final int LINKS = 1_000;
  private static final int PAGES = 5_000;
  private static final String ROOT = "http://127.0.0.1:8080/";

  private final UrlNormalizer normalizer = new UrlNormalizer(2048, true);
  private final LinkExtractor extractor = new LinkExtractor(normalizer, true, "sievecrawl");
  private String pageUrl;
  private String[] hrefs;
  private byte[] page;
  private ScopePolicy scope;
  private Sieve<String> sieve;

  @Setup
  public void setUp() {
    pageUrl = ROOT + pathOf(1007).substring(1);
    SplittableRandom random = new SplittableRandom(1007);
    hrefs = new String[LINKS];
    StringBuilder html = new StringBuilder("<!doctype html><html><head><meta charset=\"utf-8\"><title>Page</title>"
        + "</head><body><main><h1>Page 1007</h1><ul>");
    for (int i = 0; i < LINKS; i++) {
      int target = random.nextInt(PAGES);
      hrefs[i] = switch (i % 4) {
        case 0 -> pathOf(target);
        case 1 -> ROOT.substring(0, ROOT.length() - 1) + pathOf(target);
        case 2 -> pathOf(target) + "#section-" + i;
        default -> pathOf(target) + "?";
      };
      html.append("<li><a href=\"").append(hrefs[i]).append("\">link ").append(i).append("</a></li>\n");
    }
    page = html.append("</ul></main></body></html>\n").toString().getBytes(StandardCharsets.UTF_8);
    scope = new ScopePolicy(CrawlSettings.defaults(), List.of(Url.ofCanonical(ROOT)));
    sieve = Sieve.forUrls(1_000_000, 0.001);
    for (int p = 0; p < PAGES; p++) {
      sieve.offer(ROOT.substring(0, ROOT.length() - 1) + pathOf(p));
    }
  }

  private static String pathOf(int page) {
    return page == 0 ? "/" : "/section/" + (page % 50) + "/" + page + ".html";
  }

  @Benchmark
  @OperationsPerInvocation(LINKS)
  public int hrefToAdmittedOrDropped() {
    ReferenceResolver resolver = normalizer.resolverFor(pageUrl);
    int admitted = 0;
    for (String href : hrefs) {
      Url url = resolver.resolveOrNull(href);
      if (url != null && scope.rejection(url, 1) == null && sieve.offer(url.toString())) {
        admitted++;
      }
    }
    return admitted;
  }

  @Benchmark
  @OperationsPerInvocation(LINKS)
  public int extractPage() {
    return extractor.extract(page, null, Url.ofCanonical(pageUrl), null).urls().size();
  }
}
