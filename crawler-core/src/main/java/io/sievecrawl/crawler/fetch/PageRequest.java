package io.sievecrawl.crawler.fetch;

import java.time.Instant;
import okhttp3.HttpUrl;
import okhttp3.Request;

/**
 * The GET a fetch sends: the crawl's User-Agent, an Accept as a browser's for a page or for a requisite, gzip asked
 * for ({@link Bodies}), a conditional GET's validators, and the tags the network interceptors read: the
 * {@link Revalidation} (an archive records an unchanged response as a revisit), the start {@link Instant} (an
 * archive dates the capture as the record is dated), the {@link SendGate} and the {@link CaptureNote} the archive
 * answers on.
 */
final class PageRequest {
  private static final String PAGE_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8";
  private static final String REQUISITE_ACCEPT = "*/*";

  private PageRequest() {}

  /**
   * @param last what the last visit learned, for a conditional GET, or {@code null}
   * @param gate asked as the request is about to go on the wire, or {@code null}
   */
  static Request of(HttpUrl target, String userAgent, Reading reading, Revalidation last, Instant startedAt,
      SendGate gate, CaptureNote note) {
    Request.Builder builder = new Request.Builder().url(target).header("User-Agent", userAgent)
        .header("Accept", reading.requisite() ? REQUISITE_ACCEPT : PAGE_ACCEPT)
        .header("Accept-Encoding", Bodies.ACCEPT_ENCODING);
    if (last != null) {
      if (last.etag() != null) {
        builder.header("If-None-Match", last.etag());
      }
      if (last.lastModified() != null) {
        builder.header("If-Modified-Since", last.lastModified());
      }
      builder.tag(Revalidation.class, last);
    }
    builder.tag(Instant.class, startedAt);
    if (gate != null) {
      builder.tag(SendGate.class, gate);
    }
    builder.tag(CaptureNote.class, note);
    return builder.build();
  }
}
