package io.sievecrawl.crawler.fetch;

import java.time.Instant;
import java.util.Objects;

/**
 * How an archive stored an exchange whose payload it holds already: as a revisit of the capture of {@code uri} made
 * at {@code date} (its WARC-Refers-To-Target-URI and -Date), which may be of another URL (the same logo under two
 * names). A later revisit of the exchange's URL refers to that capture too, so that replay finds a payload.
 */
public record StoredAs(String uri, Instant date) {
  public StoredAs {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(date, "date");
  }
}
