package io.sievecrawl.app;

import io.sievecrawl.crawler.job.DirectoryHome;
import java.nio.file.Path;

/** A process that opens the crawl directory {@code args[0]}, says so on standard output, and waits to be killed. */
public final class LockHolder {
  private LockHolder() {}

  public static void main(String[] args) throws Exception {
    DirectoryHome job = DirectoryHome.open(Path.of(args[0]), java.time.Clock.systemUTC());
    System.out.println("holding " + job.dir());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
