package io.sievecrawl.crawler.fetch;

import io.sievecrawl.crawler.result.ErrorKind;
import java.time.Duration;
import java.time.Instant;

/**
 * One HTTP exchange as the crawler needs it: status, the headers that matter, and the body up to the size cap.
 *
 * @param status the HTTP status, or {@code null} when no response came
 * @param contentType media type, lower case, without parameters; {@code text/html} for a 2xx page without a usable
 *     Content-Type whose body starts as HTML ({@link HtmlSniffer}); {@code null} if absent
 * @param charset the charset parameter of Content-Type, or {@code null}
 * @param location the raw Location header, or {@code null}
 * @param retryAfter the Retry-After header as a duration, or {@code null}
 * @param robotsTag the X-Robots-Tag header, or {@code null}
 * @param setsCookie whether the response had a Set-Cookie header
 * @param body the page to parse, decoded (empty for anything but a 2xx HTML page or XML document); the part received
 *     of one cut off
 * @param bytes body bytes received in all, as sent (compressed if the server compressed them)
 * @param truncated whether the body went on past fetch.max-body-size (received, or decoded from a compressed page)
 *     and was cut off there
 * @param startedAt when the request started
 * @param millis time from the request to the end of the body
 * @param errorKind what went wrong, or {@code null}
 * @param error a one-line description, or {@code null}
 * @param etag the response's ETag, or {@code null}
 * @param lastModified its Last-Modified, or {@code null}
 * @param payloadDigest the body's digest as sent, {@code sha1:BASE32}, or {@code null} when no whole body came
 * @param storedAs how the archive stored it when it repeats a capture kept already (a revisit), else {@code null}
 */
public record FetchResponse(
    Integer status,
    String contentType,
    String charset,
    String location,
    Duration retryAfter,
    String robotsTag,
    boolean setsCookie,
    byte[] body,
    long bytes,
    boolean truncated,
    Instant startedAt,
    long millis,
    ErrorKind errorKind,
    String error,
    String etag,
    String lastModified,
    String payloadDigest,
    StoredAs storedAs) {

  /** A response without validators or digest (a test's, or one that failed before its head came). */
  public FetchResponse(Integer status, String contentType, String charset, String location, Duration retryAfter,
      String robotsTag, boolean setsCookie, byte[] body, long bytes, boolean truncated, Instant startedAt, long millis,
      ErrorKind errorKind, String error) {
    this(status, contentType, charset, location, retryAfter, robotsTag, setsCookie, body, bytes, truncated, startedAt,
        millis, errorKind, error, null, null, null, null);
  }

  /** This response, as failed for {@code kind}, described by {@code why}. */
  public FetchResponse withError(ErrorKind kind, String why) {
    return new FetchResponse(status, contentType, charset, location, retryAfter, robotsTag, setsCookie, body, bytes,
        truncated, startedAt, millis, kind, why, etag, lastModified, payloadDigest, storedAs);
  }

  /** This response, stored by the archive as {@code as}. */
  FetchResponse withStoredAs(StoredAs as) {
    return new FetchResponse(status, contentType, charset, location, retryAfter, robotsTag, setsCookie, body, bytes,
        truncated, startedAt, millis, errorKind, error, etag, lastModified, payloadDigest, as);
  }

  /** Whether the body is HTML the crawler parses for links. */
  public boolean isHtml() {
    return "text/html".equals(contentType) || "application/xhtml+xml".equals(contentType);
  }

  /**
   * Whether the body broke off after part of it came (the connection dropped, a read timed out): a failure to retry,
   * but what came is still a page to parse when no attempt is left.
   */
  public boolean isCutOff() {
    return status != null && (errorKind == ErrorKind.NETWORK || errorKind == ErrorKind.TIMEOUT) && body.length > 0;
  }

  /** Whether the status is a redirect that names a target. */
  public boolean isRedirect() {
    return status != null && (status == 301 || status == 302 || status == 303 || status == 307 || status == 308);
  }

  /**
   * Whether trying again later may succeed: 5xx, 429, timeouts and network errors, before the response or in its
   * body (a connection that drops mid-page); not a refused connection, an unknown host or a TLS failure.
   */
  public boolean isRetryable() {
    if (status == null) {
      return errorKind != ErrorKind.CONNECT && errorKind != ErrorKind.TLS;
    }
    if (errorKind == ErrorKind.TIMEOUT || errorKind == ErrorKind.NETWORK) {
      return true;
    }
    return status == 429 || (status >= 500 && status != 501 && status != 505);
  }
}
