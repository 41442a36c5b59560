package io.sievecrawl.crawler.fetch;

import java.time.Instant;

/**
 * What the last visit of a URL learned, for visiting it again: the validators its response gave (sent back as
 * {@code If-None-Match} and {@code If-Modified-Since}, so that a server can answer 304 Not Modified), and the digest
 * and date of its last full capture (an unchanged response is archived as a revisit of that capture).
 *
 * @param etag the last response's {@code ETag}, as received, or {@code null}
 * @param lastModified its {@code Last-Modified}, as received, or {@code null}
 * @param payloadDigest the payload digest of the last full capture ({@code sha1:BASE32}), or {@code null}
 * @param capturedAt when the last full capture was made (its WARC-Date), or {@code null}
 * @param capturedUrl the URL of that capture when it is another's (the archive kept this URL's payload as a revisit
 *     of an identical one), else {@code null}: a revisit refers to the capture that holds the payload
 */
public record Revalidation(String etag, String lastModified, String payloadDigest, Instant capturedAt,
    String capturedUrl) {

  /** Validators and the URL's own last full capture. */
  public Revalidation(String etag, String lastModified, String payloadDigest, Instant capturedAt) {
    this(etag, lastModified, payloadDigest, capturedAt, null);
  }
}
