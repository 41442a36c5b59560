package io.sievecrawl.crawler.jmh;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.CrawlState;
import io.sievecrawl.crawler.home.RunOptions;
import io.sievecrawl.crawler.job.DirectoryHome;
import io.sievecrawl.crawler.report.CrawlSummary;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.sieve.Ticker;
import io.sievecrawl.sieve.disk.DiskFrontier;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes a stopped crawl directory whose frontier holds {@code urls} queued URLs over {@code origins} origins, for
 * timing {@code sievecrawl resume} on it. Origin {@code i} is {@code http://127.X.Y.Z:PORT} (a loopback address per
 * origin, so no name needs resolving); a server listening on all addresses at {@code PORT} sees the first request.
 *
 * <p>Run: {@code mvn -q -B -pl crawler-core -am -Pjmh-crawler process-test-classes
 * -Djmh.main=io.sievecrawl.crawler.jmh.QueuedCrawlFixture -Djmh.args="/tmp/queued 10000000 100000 8080"}, then
 * {@code time app/target/sievecrawl resume /tmp/queued}. A fifth argument {@code kill} ends the process with
 * {@code Runtime.halt} instead of a checkpoint, as kill -9 would: recovery then replays the whole log into the filter.
 */
public final class QueuedCrawlFixture {
  private QueuedCrawlFixture() {}

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    long urls = Long.parseLong(args[1]);
    int origins = Integer.parseInt(args[2]);
    int port = Integer.parseInt(args[3]);
    CrawlSettings settings = CrawlSettings.builder().set(Setting.FILTER_N, Math.max(10_000_000L, 2 * urls))
        .set(Setting.ALLOW_PRIVATE_ADDRESSES, true).build();
    List<String> seeds = List.of(origin(0, port) + "/");
    DirectoryHome job = DirectoryHome.create(dir, settings, seeds, dir.resolve("results.jsonl").toString(), Clock.systemUTC());
    long start = System.nanoTime();
    job.runStarts(new RunOptions(settings, Setting.FILTER_N.key(), Ticker.SYSTEM));
    {
      DiskFrontier<CrawlTask> frontier = (DiskFrontier<CrawlTask>) job.frontier();
      List<CrawlTask> batch = new ArrayList<>(10_000);
      for (long i = 0; i < urls; i++) {
        String url = origin((int) (i % origins), port) + "/section/" + (i % 97) + "/page-" + i / origins + ".html";
        batch.add(new CrawlTask(Url.ofCanonical(url), 1, null, 0, 0));
        if (batch.size() == 10_000) {
          frontier.offerAll(batch);
          batch.clear();
        }
      }
      frontier.offerAll(batch);
      if (args.length > 4 && args[4].equals("kill")) {
        frontier.sync(); // what a crawl's sync timer would have forced by now
        System.out.printf(Locale.ROOT, "%s: %,d URLs offered, killed before a checkpoint%n", dir, urls);
        Runtime.getRuntime().halt(137);
      }
      frontier.checkpoint();
      System.out.printf(Locale.ROOT, "%s: %,d URLs queued over %,d origins in %.1f s; frontier %,.0f MB%n", dir,
          frontier.stats().queued(), origins, (System.nanoTime() - start) / 1e9, frontier.diskBytes() / 1e6);
    }
    job.runEnded(CrawlSummary.End.STOPPED, CrawlState.fresh());
    job.close();
  }

  private static String origin(int i, int port) {
    return String.format(Locale.ROOT, "http://127.%d.%d.%d:%d", 1 + (i >> 16 & 0xFF), i >> 8 & 0xFF, i & 0xFF, port);
  }
}
