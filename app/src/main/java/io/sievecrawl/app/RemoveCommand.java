package io.sievecrawl.app;

import io.sievecrawl.sieve.redis.RedisCrawl;
import io.sievecrawl.sieve.redis.SharedCrawlException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sievecrawl remove}: deletes a crawl shared through Redis, every key of it, once no agent works it. */
@Command(name = "remove", mixinStandardHelpOptions = true,
    versionProvider = SievecrawlCommand.VersionProvider.class,
    description = {"Removes the crawl --crawl-name shared through --redis: deletes every key it has there (its"
        + " frontier, URL filter, counters and settings), so that its memory is freed and its name can start a new"
        + " crawl. Refused while an agent works it (heard from in the last " + RemoveCommand.QUIET_SECONDS + " s).",
        "The agents' results files and WARC files are theirs and stay."})
final class RemoveCommand implements Callable<Integer> {
  /** An agent heard from within this long may still work the crawl: three of the default lease times. */
  static final int QUIET_SECONDS = 30;

  private final Terminal terminal;

  @Option(names = "--redis", paramLabel = "URI", required = true,
      description = "The Redis the crawl is shared through: redis://HOST:PORT/DB (a password from"
          + " SIEVECRAWL_REDIS_PASSWORD, or redis://:PASSWORD@...).")
  String redis;

  @Option(names = "--crawl-name", paramLabel = "NAME", required = true, description = "The shared crawl's name.")
  String crawlName;

  RemoveCommand(Terminal terminal) {
    this.terminal = terminal;
  }

  @Override
  public Integer call() {
    long removed;
    try {
      removed = RedisCrawl.remove(redis, crawlName, Duration.ofSeconds(QUIET_SECONDS));
    } catch (SharedCrawlException e) {
      throw new UserError(ExitCodes.SHARED, e.getMessage());
    }
    terminal.out().println(String.format(Locale.ROOT, "removed the shared crawl '%s' from %s: %,d keys", crawlName,
        RedisCrawl.shown(redis), removed));
    terminal.out().flush();
    return ExitCodes.OK;
  }
}
