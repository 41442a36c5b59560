package io.sievecrawl.crawler.result;

import java.time.Instant;
import java.util.List;

/**
 * What happened when one URL was fetched: one record per fetch attempt that reached the network, written as one
 * JSON line.
 *
 * @param url the URL fetched (normalized)
 * @param status the HTTP status, or {@code null} if no response came
 * @param contentType the media type of the response, lower case without parameters, or {@code null}
 * @param title the text of an HTML page's {@code <title>}, white space collapsed, or {@code null}
 * @param bytes body bytes received, as sent (compressed if the server compressed them), at most fetch.max-body-size
 * @param truncated whether the body went on past fetch.max-body-size, in bytes received or (for a compressed page)
 *     in bytes decoded, and was cut off there; a page is still parsed for links as far as it was read
 * @param depth link hops from a seed
 * @param referrer the page that linked or redirected here, {@code null} for a seed
 * @param fetchedAt when the request started
 * @param fetchMillis time from the request to the end of the body
 * @param outlinks links found on the page (before scope and duplicate checks)
 * @param redirectTo the normalized target of a redirect, or {@code null}
 * @param errorKind why the fetch failed, or {@code null}
 * @param error a one-line description of the failure, or {@code null}
 * @param attempts fetches tried for this URL, retries and the second fetch after a cookie check included
 * @param text an HTML page's visible text when {@code results.text} is on, else {@code null}
 * @param links the links a page gave when {@code results.links} is on, else {@code null}
 * @param capture the response's validators and payload digest, and whether it repeats the last capture
 * @param requisite whether it was fetched as a requisite of {@code referrer}, the page (or style sheet) that needs it
 */
public record CrawlResult(
    String url,
    Integer status,
    String contentType,
    String title,
    long bytes,
    boolean truncated,
    int depth,
    String referrer,
    Instant fetchedAt,
    long fetchMillis,
    int outlinks,
    String redirectTo,
    ErrorKind errorKind,
    String error,
    int attempts,
    String text,
    List<Link> links,
    Capture capture,
    boolean requisite) {

  /**
   * What identifies this response's content, for the next visit: its validators and payload digest; and, when it was
   * found unchanged since the last visit, how ({@code server-not-modified}: the server answered 304;
   * {@code identical-payload-digest}: the same bytes came again) and when that visit captured it in full.
   *
   * @param etag the response's ETag, or the last one when a 304 did not repeat it
   * @param lastModified its Last-Modified, likewise
   * @param payloadDigest the body's digest as sent ({@code sha1:BASE32}), the last capture's for a 304; {@code null}
   *     when no whole body came
   * @param revisit {@code null}, {@code server-not-modified} or {@code identical-payload-digest}
   * @param capturedAt for a revisit, when the capture it repeats was made; {@code null} otherwise
   * @param capturedUrl for a revisit of another URL's capture (an identical payload archived once), that URL;
   *     {@code null} otherwise
   */
  public record Capture(String etag, String lastModified, String payloadDigest, String revisit, Instant capturedAt,
      String capturedUrl) {
    public static final String SERVER_NOT_MODIFIED = "server-not-modified";
    public static final String IDENTICAL_PAYLOAD_DIGEST = "identical-payload-digest";

    /** A capture that repeats none of another URL. */
    public Capture(String etag, String lastModified, String payloadDigest, String revisit, Instant capturedAt) {
      this(etag, lastModified, payloadDigest, revisit, capturedAt, null);
    }
  }

  /**
   * A link a page gave, normalized, and why it was not followed ({@code seen}, {@code out-of-scope-host}, ...), or
   * {@code null} when it was admitted.
   */
  public record Link(String url, String notFollowed) {}

  /** A record of a URL that is no requisite. */
  public CrawlResult(String url, Integer status, String contentType, String title, long bytes, boolean truncated,
      int depth, String referrer, Instant fetchedAt, long fetchMillis, int outlinks, String redirectTo,
      ErrorKind errorKind, String error, int attempts, String text, List<Link> links, Capture capture) {
    this(url, status, contentType, title, bytes, truncated, depth, referrer, fetchedAt, fetchMillis, outlinks,
        redirectTo, errorKind, error, attempts, text, links, capture, false);
  }

  /** A record without text, links or capture. */
  public CrawlResult(String url, Integer status, String contentType, String title, long bytes, boolean truncated,
      int depth, String referrer, Instant fetchedAt, long fetchMillis, int outlinks, String redirectTo,
      ErrorKind errorKind, String error, int attempts) {
    this(url, status, contentType, title, bytes, truncated, depth, referrer, fetchedAt, fetchMillis, outlinks,
        redirectTo, errorKind, error, attempts, null, null, null);
  }

  /** Whether the page was found unchanged since the last visit. */
  public boolean isRevisit() {
    return capture != null && capture.revisit() != null;
  }

  /** This record with the failure {@code kind}, described by {@code why}. */
  public CrawlResult withError(ErrorKind kind, String why) {
    return new CrawlResult(url, status, contentType, title, bytes, truncated, depth, referrer, fetchedAt, fetchMillis,
        outlinks, redirectTo, kind, why, attempts, text, links, capture, requisite);
  }

  /** This record of a redirect to {@code target}. */
  public CrawlResult withRedirectTo(String target) {
    return new CrawlResult(url, status, contentType, title, bytes, truncated, depth, referrer, fetchedAt, fetchMillis,
        outlinks, target, errorKind, error, attempts, text, links, capture, requisite);
  }

  /** This record with what was read from the body: links found, whether the read was cut short, title and text. */
  public CrawlResult withContent(int found, boolean cutShort, String pageTitle, String pageText) {
    return new CrawlResult(url, status, contentType, pageTitle, bytes, truncated || cutShort, depth, referrer,
        fetchedAt, fetchMillis, found, redirectTo, errorKind, error, attempts, pageText, links, capture, requisite);
  }

  /** This record with the links a page gave and their fate. */
  public CrawlResult withLinks(List<Link> given) {
    return new CrawlResult(url, status, contentType, title, bytes, truncated, depth, referrer, fetchedAt, fetchMillis,
        outlinks, redirectTo, errorKind, error, attempts, text, List.copyOf(given), capture, requisite);
  }

  /** This record, of a requisite. */
  public CrawlResult asRequisite() {
    return requisite ? this : new CrawlResult(url, status, contentType, title, bytes, truncated, depth, referrer,
        fetchedAt, fetchMillis, outlinks, redirectTo, errorKind, error, attempts, text, links, capture, true);
  }

  /** The status class as counted in summaries: {@code "2xx"} ... {@code "5xx"}, or {@code "none"}. */
  public String statusClass() {
    return status == null ? "none" : (status / 100) + "xx";
  }
}
