package io.sievecrawl.crawler.fetch;

import java.net.InetAddress;
import java.time.Instant;

/**
 * One HTTP exchange as it went over the wire, for an archive: the request's head, the response's head and its body
 * as sent (content-coded; the transfer coding removed, see {@link CaptureInterceptor}).
 *
 * @param url the URL requested
 * @param date when the request was sent
 * @param ip the server's address, or {@code null} if unknown
 * @param requestHead the request line and header fields, CRLF-terminated, ending with the empty line
 * @param responseHead the status line and header fields, likewise
 * @param body the response body as received, at most the capture's cap
 * @param truncation why the body is not whole, or {@code null} when it is
 * @param revalidation what the last visit learned, when this request revisited the URL, or {@code null}
 */
public record Exchange(String url, Instant date, InetAddress ip, byte[] requestHead, byte[] responseHead,
    CaptureBuffer body, Truncation truncation, Revalidation revalidation) {

  /** An exchange of a first visit. */
  public Exchange(String url, Instant date, InetAddress ip, byte[] requestHead, byte[] responseHead,
      CaptureBuffer body, Truncation truncation) {
    this(url, date, ip, requestHead, responseHead, body, truncation, null);
  }

  /** Why a captured body is not whole. */
  public enum Truncation {
    /** It went on past the size cap, or its reader stopped at a size limit. */
    LENGTH,
    /** The connection failed while it was being read (a reset, a timeout, a stop). */
    DISCONNECT
  }
}
