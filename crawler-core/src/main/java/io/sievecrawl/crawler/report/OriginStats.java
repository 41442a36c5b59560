package io.sievecrawl.crawler.report;

import io.sievecrawl.crawler.result.CrawlResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counters per origin for the report at the end, in bounded memory: the {@value #MAX_ORIGINS} most recently active
 * origins are kept (a broad crawl touches millions; the report lists the busiest).
 */
public final class OriginStats {
  static final int MAX_ORIGINS = 10_000;

  private static final class Counts {
    long pages;
    long bytes;
    final Map<String, Long> byStatusClass = new TreeMap<>();
    long errors;
    String robots = "unknown";
    long disallowed;
    long pausedMillis;
  }

  private final LinkedHashMap<String, Counts> origins = new LinkedHashMap<>(1024, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Counts> eldest) {
      return size() > MAX_ORIGINS;
    }
  };

  public synchronized void fetched(String origin, CrawlResult result) {
    Counts c = origins.computeIfAbsent(origin, o -> new Counts());
    c.pages++;
    c.bytes += result.bytes();
    c.byStatusClass.merge(result.statusClass(), 1L, Long::sum);
    if (result.errorKind() != null) {
      c.errors++;
    }
  }

  public synchronized void robots(String origin, String outcome) {
    origins.computeIfAbsent(origin, o -> new Counts()).robots = outcome;
  }

  public synchronized void disallowed(String origin) {
    Counts c = origins.computeIfAbsent(origin, o -> new Counts());
    c.disallowed++;
    c.robots = "allowed";
  }

  public synchronized void paused(String origin, Duration pause) {
    origins.computeIfAbsent(origin, o -> new Counts()).pausedMillis += pause.toMillis();
  }

  /** The rows, busiest origin first. */
  public synchronized List<OriginRow> rows() {
    List<OriginRow> rows = new ArrayList<>(origins.size());
    origins.forEach((origin, c) -> rows.add(new OriginRow(origin, c.pages, c.bytes, Map.copyOf(c.byStatusClass), c.errors,
        c.robots, c.disallowed, c.pausedMillis)));
    rows.sort(Comparator.comparingLong(OriginRow::pages).reversed().thenComparing(OriginRow::origin));
    return rows;
  }
}
