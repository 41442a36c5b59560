package io.sievecrawl.app;

import picocli.CommandLine.Option;

/** The options that name a shared crawl, for the commands that work on one already started (join, remove). */
final class SharedCrawlOptions {
  @Option(names = "--redis", paramLabel = "URI", required = true,
      description = "The Redis the crawl is shared through: redis://HOST:PORT/DB, or any nodes of a Redis Cluster:"
          + " redis://HOST1:PORT1,HOST2:PORT2 (a password from SIEVECRAWL_REDIS_PASSWORD, or redis://:PASSWORD@...).")
  String redis;

  @Option(names = "--crawl-name", paramLabel = "NAME", required = true, description = "The shared crawl's name.")
  String crawlName;
}
