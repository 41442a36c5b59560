package io.sievecrawl.app;

import io.sievecrawl.config.Values;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ResultSink;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** With {@code -v}: one console line per fetched URL (status or error, time, bytes, URL), besides the results. */
final class VerboseResults implements ResultSink {
  private static final Logger log = LoggerFactory.getLogger("fetch");

  private final ResultSink results;

  VerboseResults(ResultSink results) {
    this.results = results;
  }

  @Override
  public void accept(CrawlResult r) throws IOException {
    results.accept(r);
    if (log.isDebugEnabled()) {
      String outcome = r.status() != null ? Integer.toString(r.status()) : r.errorKind().name();
      log.debug("{} {} {} {}", outcome, String.format(java.util.Locale.ROOT, "%,dms", r.fetchMillis()),
          Values.formatSize(r.bytes()), SeedFile.escape(r.url()));
    }
  }

  @Override
  public void flush() throws IOException {
    results.flush();
  }

  @Override
  public void close() throws IOException {
    results.close();
  }
}
