package io.sievecrawl.crawler.lease;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One WARN per origin for failures that repeat on every page of it (an untrusted certificate), instead of one per
 * page; remembers at most {@value #MAX_ORIGINS} origins, then stays quiet.
 */
final class OriginWarnings {
  static final int MAX_ORIGINS = 10_000;
  private static final Logger log = LoggerFactory.getLogger(OriginWarnings.class);

  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  void warnOnce(String origin, String cause) {
    if (warned.size() < MAX_ORIGINS && warned.add(origin)) {
      log.warn("{}: {}; not retried (each page of it is recorded with this error)", origin, cause);
    }
  }
}
