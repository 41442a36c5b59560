package io.sievecrawl.crawler.job;

import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.Seeds;
import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Durable;
import io.sievecrawl.sieve.disk.DiskFrontier;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * One generation of a crawl directory's files: the first crawl is generation 0, each recrawl the next. A
 * generation has its own frontier ({@code frontier/}, then {@code frontier-G/}), its visits ({@code visits-G.jsonl})
 * and, for a recrawl, the URLs the last one left queued ({@code carried-G.txt}).
 *
 * @param dir the crawl directory
 * @param number the generation
 * @param cutoff for a recrawl: URLs last fetched before it are visited again, later ones kept; {@code null} for 0
 * @param forgetAfter for a recrawl: 404/410 answers in a row after which a URL is not visited again
 */
record Generation(Path dir, int number, Instant cutoff, int forgetAfter) {
  private static final String FRONTIER = CrawlFiles.FRONTIER;
  private static final String VISITS = CrawlFiles.VISITS;
  private static final String CARRIED = CrawlFiles.CARRIED;

  Path frontierDir() {
    return frontierDir(number);
  }

  Path visitsFile() {
    return visitsFile(number);
  }

  /**
   * What a generation queues: for 0 the seeds; for a recrawl first every URL of earlier generations' visits still
   * on disk, newest first (a URL's newest visit is queued, the older ones refused as seen), each with what it
   * learned, those gone too often left out (held in memory while the files are read: one entry per URL forgotten);
   * then the URLs carried over by this and earlier unfinished generations; then the seeds. The scope stays the
   * seeds'.
   */
  Seeds seeds(Seeds original) {
    if (number == 0) {
      return original;
    }
    return new Seeds() {
      @Override
      public void forEach(Action action) throws IOException {
        original.forEach(action);
      }

      @Override
      public void forEachVisit(VisitAction action) throws IOException {
        // A URL forgotten by its newest line must not come back through an older one, which the frontier would not
        // refuse as seen (the newest was never queued): those URLs are remembered while the files are read.
        Set<String> forgotten = new HashSet<>();
        for (int g = number - 1; g >= 0; g--) {
          Path visits = visitsFile(g);
          if (Files.exists(visits)) {
            VisitFile.forEachNewestFirst(visits, cutoff, visit -> {
              if (forgotten.contains(visit.url())) {
                return;
              }
              if (visit.last().gone() >= forgetAfter) {
                forgotten.add(visit.url());
              } else {
                action.accept(visit.url(), visit.last());
              }
            });
          }
        }
        for (int g = number; g >= 1; g--) { // an unfinished generation may not have queued what it carried
          Path carried = carriedFile(g);
          if (Files.exists(carried)) {
            Seeds.inFile(carried).forEach(url -> action.accept(url, null));
          }
        }
        original.forEach(url -> action.accept(url, null));
      }

      @Override
      public boolean normalized() {
        return true;
      }

      @Override
      public boolean queuedBeforeFetching() {
        return true;
      }
    };
  }

  /**
   * Writes the URLs still waiting in {@code frontier} (this generation's) where the next generation reads them;
   * returns how many. The frontier's tasks are claimed and left unacknowledged: it goes next.
   */
  long carryQueued(DiskFrontier<CrawlTask> frontier) throws IOException {
    Path carried = carriedFile(number + 1);
    Path temp = carried.resolveSibling(carried.getFileName() + CrawlFiles.TEMPORARY);
    long count = 0;
    try (BufferedWriter out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) { // streamed: millions may wait
      for (String queue = frontier.nextQueue(); queue != null; queue = frontier.nextQueue()) {
        for (Claim<CrawlTask> claim = frontier.poll(queue); claim != null; claim = frontier.poll(queue)) {
          out.write(claim.task().key());
          out.write('\n');
          count++;
        }
        frontier.releaseQueue(queue);
      }
    }
    Durable.move(temp, carried); // whole or absent: forced, then renamed into place
    return count;
  }


  /** Deletes the frontier of the generation before: the manifest names this one, so it is of no more use. */
  void dropPreviousFrontier() throws IOException {
    if (number > 0) {
      CrawlFiles.deleteTree(frontierDir(number - 1));
    }
  }

  /** Deletes what this generation, completed, superseded: earlier visits and the URLs carried. */
  void dropSuperseded() throws IOException {
    for (int g = 0; g < number; g++) {
      Files.deleteIfExists(visitsFile(g));
    }
    for (int g = 0; g <= number; g++) {
      Files.deleteIfExists(carriedFile(g));
    }
  }

  private Path frontierDir(int g) {
    return dir.resolve(g == 0 ? FRONTIER : FRONTIER + "-" + g);
  }

  private Path visitsFile(int g) {
    return dir.resolve(String.format(Locale.ROOT, VISITS, g));
  }

  private Path carriedFile(int g) {
    return dir.resolve(String.format(Locale.ROOT, CARRIED, g));
  }
}
