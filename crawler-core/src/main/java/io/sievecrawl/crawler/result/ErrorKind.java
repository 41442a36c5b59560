package io.sievecrawl.crawler.result;

/** Why a fetch produced no usable page. */
public enum ErrorKind {
  /** No connection could be made (refused, unreachable, DNS failure). */
  CONNECT,
  /** The connection, a read or the whole call took too long. */
  TIMEOUT,
  /** Another network or protocol error (reset connection, malformed response, TLS failure). */
  NETWORK,
  /** The body exceeded fetch.max-body-size (after decompression); it was cut off. */
  BODY_TOO_LARGE,
  /** The server kept failing (5xx, 429) through every retry, or asked to wait longer than allowed. */
  RETRIES_EXHAUSTED,
  /** More redirect hops than fetch.max-redirects. */
  TOO_MANY_REDIRECTS,
  /** A redirect without a usable Location. */
  BAD_REDIRECT,
  /** The page could not be parsed or an unexpected internal error happened while handling it. */
  INTERNAL
}
