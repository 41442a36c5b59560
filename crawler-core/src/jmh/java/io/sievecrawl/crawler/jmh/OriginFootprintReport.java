package io.sievecrawl.crawler.jmh;

import io.sievecrawl.crawler.schedule.HostScheduler;
import io.sievecrawl.crawler.schedule.Politeness;
import io.sievecrawl.crawler.schedule.SchedulerSnapshot;
import io.sievecrawl.sieve.TaskCodec;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.disk.DiskFrontier;
import io.sievecrawl.sieve.disk.FrontierOptions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Heap per origin of a broad crawl's frontier and scheduler: {@code origins} origins with {@code perOrigin} URLs
 * queued each on the disk frontier (n = 10M, p = 1%), then {@code active} of them leased once and completed, so
 * that the scheduler keeps their pace (a 1 s delay on a clock that stands still). Heap is measured after a full GC
 * at each step: an origin waiting in the frontier's line costs the frontier's queue entry; one at the scheduler's
 * hand costs that and its pace.
 *
 * <p>Run: {@code mvn -q -B -pl crawler-core -am -Pjmh-crawler process-test-classes
 * -Djmh.main=io.sievecrawl.crawler.jmh.OriginFootprintReport -Djmh.args="100000 10 20000" -Djmh.heap=256m}.
 */
public final class OriginFootprintReport {
  private OriginFootprintReport() {}

  public static void main(String[] args) throws IOException {
    int origins = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int perOrigin = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    int active = args.length > 2 ? Integer.parseInt(args[2]) : 20_000;
    Path dir = Files.createTempDirectory("origin-footprint");
    AtomicLong clock = new AtomicLong(1_000_000_000L);
    long start = System.nanoTime();
    try (DiskFrontier<String> frontier = DiskFrontier.open(dir, 10_000_000, 0.01, new Utf8(), url -> url,
        OriginFootprintReport::origin, FrontierOptions.defaults("n").withCheckpointInterval(Duration.ofHours(1)),
        Ticker.SYSTEM)) {
      HostScheduler<String> scheduler = new HostScheduler<>(frontier,
          Politeness.of(1, Duration.ofSeconds(1), false, 1, Duration.ofSeconds(1)), clock::get,
          HostScheduler.LeaseObserver.NONE);
      long empty = usedHeapAfterGc();
      for (int u = 0; u < perOrigin; u++) {
        List<String> batch = new ArrayList<>(1_000);
        for (int o = 0; o < origins; o++) {
          batch.add("https://site-" + o + ".example/section/" + (u % 7) + "/page-" + u + ".html");
          if (batch.size() == 1_000) {
            scheduler.offerAll(batch);
            batch.clear();
          }
        }
        scheduler.offerAll(batch);
      }
      long queued = usedHeapAfterGc();
      int leased = 0;
      for (HostScheduler.Lease<String> lease = scheduler.poll(); lease != null && leased < active;
          lease = leased < active ? scheduler.poll() : null) {
        scheduler.complete(lease);
        leased++;
      }
      long atHand = usedHeapAfterGc();
      SchedulerSnapshot snapshot = scheduler.snapshot();
      System.out.printf(Locale.ROOT, "%,d origins, %,d URLs queued (%s); heap limit %,d MB; %.1f s%n", origins,
          frontier.stats().queued(), frontier.stats().queues() + " queues holding tasks",
          Runtime.getRuntime().maxMemory() >> 20, (System.nanoTime() - start) / 1e9);
      System.out.printf(Locale.ROOT, "  heap, empty frontier and scheduler (filter included): %,.1f MB%n", empty / 1e6);
      System.out.printf(Locale.ROOT, "  heap with every origin in the frontier's line: %,.1f MB, %,.0f bytes per origin%n",
          queued / 1e6, (double) (queued - empty) / origins);
      System.out.printf(Locale.ROOT, "  heap with %,d of them at the scheduler's hand: %,.1f MB, %,.0f bytes more per"
          + " origin at hand%n", snapshot.active(), atHand / 1e6, (double) (atHand - queued) / snapshot.active());
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }

  private static String origin(String url) {
    return url.substring(0, url.indexOf('/', 8));
  }

  private static long usedHeapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static final class Utf8 implements TaskCodec<String> {
    @Override
    public byte[] encode(String task) {
      return task.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String decode(byte[] bytes, int offset, int length) {
      return new String(bytes, offset, length, StandardCharsets.UTF_8);
    }
  }
}
