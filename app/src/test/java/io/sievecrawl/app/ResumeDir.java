package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sievecrawl.crawler.bench.SyntheticSite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A test's directory for crawls it stops and resumes: the seeds file, the log, and a crawl stopped early. */
final class ResumeDir {
  private final Path dir;

  ResumeDir(Path dir) {
    this.dir = dir;
  }

  /** A seeds file naming {@code site}'s root. */
  Path seeds(SyntheticSite site) throws IOException {
    return Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");
  }

  /** The log file every run in the directory writes. */
  String log() {
    return dir.resolve("sievecrawl.log").toString();
  }

  /**
   * A crawl directory, {@code job}, of a 50-page site stopped by its page limit after 5 pages, so it can be resumed;
   * its results go to {@code results.jsonl}.
   */
  Path stoppedCrawl(String... more) throws IOException {
    try (SyntheticSite site = SyntheticSite.start(50, 5)) {
      Path job = dir.resolve("job");
      List<String> args = new ArrayList<>(List.of("crawl", seeds(site).toString(), "--job", job.toString(), "-o",
          dir.resolve("results.jsonl").toString(), "--log-file", log(), "--max-pages", "5", "-n", "100k",
          "--delay", "0ms"));
      args.addAll(List.of(more));
      Cmd cmd = Cmd.run(args.toArray(String[]::new));
      assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
      return job;
    }
  }
}
