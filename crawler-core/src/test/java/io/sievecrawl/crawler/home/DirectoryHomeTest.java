package io.sievecrawl.crawler.home;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.job.DirectoryHome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.io.TempDir;

/** The {@link CrawlHomeContract} for a crawl directory: reopened from its files after the home is closed. */
class DirectoryHomeTest extends CrawlHomeContract {
  @TempDir
  Path dir;
  private int crawls;

  @Override
  CrawlHome create(CrawlSettings settings) throws IOException {
    return DirectoryHome.create(dir.resolve("crawl-" + crawls++), settings, List.of("https://a.example/"), "-",
        Clock.systemUTC());
  }

  @Override
  CrawlHome reopen(CrawlHome closed) throws IOException {
    closed.close();
    return DirectoryHome.open(((DirectoryHome) closed).dir(), Clock.systemUTC());
  }

  @Override
  boolean keepsTotals() {
    return true;
  }

  @Override
  boolean sharesScope() {
    return false;
  }

  @Override
  boolean resizable() {
    return true;
  }

  @Override
  Set<String> visitsKept(CrawlHome home) throws IOException {
    Set<String> urls = new TreeSet<>();
    Path visits = ((DirectoryHome) home).dir().resolve("visits-0.jsonl");
    for (String line : Files.readAllLines(visits)) {
      urls.add(line.replaceAll(".*\"url\":\"([^\"]*)\".*", "$1"));
    }
    return urls;
  }

  @Override
  boolean keepsVisits() {
    return true;
  }
}
