package io.sievecrawl.app;

import io.sievecrawl.config.ConfigFile;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.home.SharedCrawls;
import io.sievecrawl.crawler.home.SharedHomeException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code sievecrawl remove}: deletes a crawl shared through Redis, every key of it, once no agent works it. */
@Command(name = "remove", mixinStandardHelpOptions = true,
    versionProvider = SievecrawlCommand.VersionProvider.class,
    description = {"Removes the crawl --crawl-name shared through --redis: deletes every key it has there (its"
        + " frontier, URL filter, counters and settings), so that its memory is freed and its name can start a new"
        + " crawl. Refused while an agent works it: heard from within three of the crawl's lease times"
        + " (frontier.lease-ttl), and at least " + RemoveCommand.MIN_QUIET_SECONDS + " s.",
        "The agents' results files and WARC files are theirs and stay."})
final class RemoveCommand implements Callable<Integer> {
  /**
   * An agent heard from within three of the crawl's lease times, and this many seconds, may still work it: agents
   * beat every third of a lease time.
   */
  static final int MIN_QUIET_SECONDS = 30;

  private final Terminal terminal;

  @Mixin
  SharedCrawlOptions sharedCrawl = new SharedCrawlOptions();

  RemoveCommand(Terminal terminal) {
    this.terminal = terminal;
  }

  /** How long an agent of the crawl whose settings are {@code settingsText} may go unheard and still work it. */
  static Duration quietFor(String settingsText) {
    Duration lease;
    try {
      CrawlSettings.Builder settings = CrawlSettings.builder();
      ConfigFile.parse("the shared crawl's settings", settingsText, settings);
      lease = settings.build().frontier().leaseTtl();
    } catch (RuntimeException e) { // settings of another build: the longest lease time any allows
      lease = Setting.LEASE_TTL.type().largest().orElseThrow();
    }
    Duration quiet = lease.multipliedBy(3);
    return quiet.compareTo(Duration.ofSeconds(MIN_QUIET_SECONDS)) > 0 ? quiet : Duration.ofSeconds(MIN_QUIET_SECONDS);
  }

  @Override
  public Integer call() {
    long removed;
    try {
      removed = SharedCrawls.remove(sharedCrawl.redis, sharedCrawl.crawlName, RemoveCommand::quietFor);
    } catch (SharedHomeException e) {
      throw new UserError(ExitCodes.SHARED, e.getMessage());
    }
    terminal.out().println(String.format(Locale.ROOT, "removed the shared crawl '%s' from %s: %,d keys",
        sharedCrawl.crawlName, SharedCrawls.shown(sharedCrawl.redis), removed));
    terminal.out().flush();
    return ExitCodes.OK;
  }
}
