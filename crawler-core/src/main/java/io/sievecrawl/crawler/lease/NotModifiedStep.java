package io.sievecrawl.crawler.lease;

import io.sievecrawl.crawler.fetch.FetchResponse;
import java.io.IOException;

/**
 * A revisit the server answered 304 Not Modified: the page is as the last visit captured it. It is recorded so
 * (the record's capture says {@code server-not-modified}), with no body to read: no retry, no redirect, no links
 * (its links are those of the last visit, each revisited on its own).
 */
final class NotModifiedStep implements LeaseStep {

  @Override
  public Outcome handle(Chain chain) throws IOException {
    FetchResponse response = chain.response();
    if (chain.task().last() != null && response.errorKind() == null && Integer.valueOf(304).equals(response.status())) {
      return Outcome.complete(chain.record());
    }
    return chain.proceed();
  }
}
