package io.sievecrawl.crawler.result;

/** Why a fetch produced no usable page. */
public enum ErrorKind {
  /** No connection could be made (refused, unreachable, unknown host); not retried: waiting rarely helps. */
  CONNECT,
  /** The server's certificate is not trusted, or the TLS handshake failed; not retried. */
  TLS,
  /** The connection, a read or the whole call took too long. */
  TIMEOUT,
  /** Another network or protocol error (reset connection, malformed response, TLS failure). */
  NETWORK,
  /** The page's body could not be decoded: a Content-Encoding the crawler does not speak, or a corrupt body. */
  DECODING,
  /** The server kept failing (5xx, 429) through every retry, or asked to wait longer than allowed. */
  RETRIES_EXHAUSTED,
  /** More redirect hops than fetch.max-redirects. */
  TOO_MANY_REDIRECTS,
  /** A redirect without a usable Location. */
  BAD_REDIRECT,
  /** The page could not be parsed or an unexpected internal error happened while handling it. */
  INTERNAL,
  /** Not fetched: robots.txt disallows it (no request was sent for the page). */
  ROBOTS_DISALLOWED,
  /**
   * Not fetched: the origin was given up because its robots.txt kept failing with 429 or 5xx, or timed out three
   * times (the error says why).
   */
  ROBOTS_UNAVAILABLE,
  /**
   * Not fetched: the origin's server cannot be reached at all (connection refused, unknown host, no route, TLS
   * failure, met when fetching its robots.txt); no request was sent for this URL. The error says why.
   */
  ORIGIN_UNREACHABLE,
  /** Fetched as a sitemap (robots.txt or a sitemap index lists it), but its body is no sitemap (the error says why). */
  NOT_A_SITEMAP
}
