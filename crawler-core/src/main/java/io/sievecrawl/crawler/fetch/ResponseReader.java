package io.sievecrawl.crawler.fetch;

import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Turns an exchange into a {@link FetchResponse}: the headers that matter, and the body read as a stream within its
 * cap (fetch.max-body-size, or requisites.max-body-size for a requisite not read), decoded when it is parsed and
 * sniffed when its type is unknown; a failure, before the head or in the body, as the {@link ErrorKind} and one line
 * a user can act on.
 */
final class ResponseReader {
  private final long maxBodySize;
  private final long maxRequisiteSize;
  private final boolean capturing;
  private final boolean payloadDigests;
  private final Clock clock;
  private final Ticker ticker;

  /**
   * @param capturing whether exchanges are archived, so that every body is read (an archive keeps it whole)
   * @param payloadDigests whether each body's payload digest is computed as it is read
   * @param clock the wall clock, for Retry-After dates
   * @param ticker the crawl's ticker, for how long each fetch took
   */
  ResponseReader(long maxBodySize, long maxRequisiteSize, boolean capturing, boolean payloadDigests, Clock clock,
      Ticker ticker) {
    this.maxBodySize = maxBodySize;
    this.maxRequisiteSize = maxRequisiteSize;
    this.capturing = capturing;
    this.payloadDigests = payloadDigests;
    this.clock = clock;
    this.ticker = ticker;
  }

  /**
   * Reads {@code response}, asked for as {@code reading}, to the end of its body or to the cap.
   *
   * @param startNanos the ticker's reading when the fetch started
   * @throws IOException if the body cannot be read at all
   */
  FetchResponse read(Response response, Reading reading, Instant startedAt, long startNanos) throws IOException {
    int status = response.code();
    ResponseBody body = response.body();
    ContentTypeHeader header = ContentTypeHeader.parse(response.header("Content-Type"));
    String contentType = header.mediaType();
    String charset = header.charset();
    String location = response.header("Location");
    Duration retryAfter = parseRetryAfter(response.header("Retry-After"), clock);
    String robotsTag = response.header("X-Robots-Tag");
    String encoding = response.header("Content-Encoding");
    boolean parse = reading.parses(status, contentType);
    boolean sniff = parse && !reading.anyType() && HtmlSniffer.typeUnknown(contentType);
    long cap = reading.requisite() && !parse ? maxRequisiteSize : maxBodySize;
    // Read to the end, or to the cap: a page cut off at the cap is still parsed as far as it was read. A body that
    // is neither parsed nor archived and says it is over the cap is not read at all: that would only count bytes.
    boolean worthReading = parse || capturing || body.contentLength() <= cap;
    Bodies.Raw raw = worthReading ? Bodies.readUntilCut(body.source(), cap, parse, payloadDigests)
        : Bodies.Raw.notRead(true);
    byte[] bytes = new byte[0];
    boolean truncated = raw.truncated();
    ErrorKind errorKind = null;
    String error = null;
    if (raw.cutOff() != null) { // retried as a failure; the part received is parsed if this was the last attempt
      errorKind = errorKind(raw.cutOff());
      error = describe(raw.cutOff()) + String.format(Locale.ROOT, " after %,d bytes of the body", raw.length());
    }
    if (parse) {
      try {
        Bodies.Decoded decoded = Bodies.decode(raw.bytes(), encoding, maxBodySize);
        bytes = decoded.bytes();
        truncated |= decoded.truncated();
        if (sniff) {
          if (HtmlSniffer.looksLikeHtml(bytes)) {
            contentType = "text/html";
          } else {
            bytes = new byte[0];
          }
        }
      } catch (IOException e) {
        if (errorKind == null) { // a body cut off is a network failure first, whatever its bytes decode to
          errorKind = ErrorKind.DECODING;
          error = e.getMessage();
        }
      }
    }
    boolean setsCookie = response.header("Set-Cookie") != null;
    return new FetchResponse(status, contentType, charset, location, retryAfter, robotsTag, setsCookie, bytes,
        raw.length(), truncated, startedAt, elapsedMillis(startNanos), errorKind, error, response.header("ETag"),
        response.header("Last-Modified"), raw.payloadDigest(), null);
  }

  /**
   * A fetch that failed with {@code e}: before any response ({@code status} null) or while its body was read.
   *
   * @param startNanos the ticker's reading when the fetch started
   */
  FetchResponse failed(Integer status, Instant startedAt, long startNanos, IOException e) {
    return new FetchResponse(status, null, null, null, null, null, false, new byte[0], 0, false, startedAt,
        elapsedMillis(startNanos), errorKind(e), describe(e));
  }

  static ErrorKind errorKind(IOException e) {
    if (e instanceof SocketTimeoutException || (e instanceof InterruptedIOException && "timeout".equals(e.getMessage()))) {
      return ErrorKind.TIMEOUT;
    }
    FailureCause cause = FailureCause.of(e);
    if (cause.tls()) {
      return ErrorKind.TLS;
    }
    return cause.permanent() ? ErrorKind.CONNECT : ErrorKind.NETWORK;
  }

  private static String describe(IOException e) {
    return FailureCause.of(e).description();
  }

  /** Retry-After as delta-seconds or an HTTP date (from now on {@code clock}); {@code null} if absent or unreadable. */
  static Duration parseRetryAfter(String value, Clock clock) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String v = value.trim();
    if (v.chars().allMatch(Character::isDigit)) {
      return Duration.ofSeconds(Long.parseLong(v.length() > 9 ? "999999999" : v));
    }
    try {
      Duration d = Duration.between(clock.instant(), ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME));
      return d.isNegative() ? Duration.ZERO : d;
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private long elapsedMillis(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(ticker.nanos() - startNanos);
  }
}
