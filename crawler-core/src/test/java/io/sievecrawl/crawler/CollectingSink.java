package io.sievecrawl.crawler;

import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.result.ResultSink;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/** Keeps every result; optionally runs a callback on each (from the worker thread). */
public final class CollectingSink implements ResultSink {
  private final Queue<CrawlResult> results = new ConcurrentLinkedQueue<>();
  private final Consumer<CrawlResult> onResult;

  public CollectingSink() {
    this(r -> { });
  }

  public CollectingSink(Consumer<CrawlResult> onResult) {
    this.onResult = onResult;
  }

  @Override
  public void accept(CrawlResult result) {
    results.add(result);
    onResult.accept(result);
  }

  public List<CrawlResult> results() {
    return List.copyOf(results);
  }

  /** How many records of fetches (not of URLs given up for robots.txt) each URL got. */
  Map<String, Long> countsByUrl() {
    return fetched().stream().collect(Collectors.groupingBy(CrawlResult::url, Collectors.counting()));
  }

  /** Records of fetches, leaving out those of URLs given up for robots.txt reasons (no request was sent). */
  List<CrawlResult> fetched() {
    return results.stream().filter(r -> r.errorKind() != ErrorKind.ROBOTS_DISALLOWED
        && r.errorKind() != ErrorKind.ROBOTS_UNAVAILABLE && r.errorKind() != ErrorKind.ORIGIN_UNREACHABLE).toList();
  }

  /** The URLs of fetch records, sorted. */
  List<String> fetchedUrls() {
    return fetched().stream().map(CrawlResult::url).sorted().toList();
  }

  CrawlResult get(String url) {
    return results.stream().filter(r -> r.url().equals(url)).findFirst()
        .orElseThrow(() -> new AssertionError("no result for " + url + " in " + countsByUrl().keySet()));
  }
}
