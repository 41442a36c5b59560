package io.sievecrawl.crawler.fetch;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.crawler.result.ErrorKind;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;

/**
 * Fetches one URL with a shared {@link OkHttpClient}: no automatic redirects (the crawler follows them hop by hop),
 * connect/read/whole-call timeouts, gzip handled transparently, and the body read as a stream and cut off at the
 * size cap, which applies to the decompressed bytes.
 *
 * <p>Thread-safe; one instance serves every worker. {@link #cancelAll()} aborts calls in flight (for a stop that
 * must end quickly).
 */
public final class PageFetcher implements AutoCloseable {
  private static final int READ_CHUNK = 16 * 1024;

  private final OkHttpClient client;
  private final CallTracker calls = new CallTracker();
  private final String userAgent;
  private final long maxBodySize;

  /** A fetcher that may fetch any host. */
  public PageFetcher(CrawlSettings settings) {
    this(settings, host -> true);
  }

  /**
   * A fetcher that refuses hosts resolving only to local addresses (loopback, private, link-local) unless
   * {@code mayBeLocal} accepts them: see {@link PrivateAddresses}.
   */
  public PageFetcher(CrawlSettings settings, java.util.function.Predicate<String> mayBeLocal) {
    this.client = new OkHttpClient.Builder()
        .dns(PrivateAddresses.asDns(mayBeLocal))
        .followRedirects(false)
        .followSslRedirects(false)
        .connectTimeout(settings.connectTimeout())
        .readTimeout(settings.readTimeout())
        .writeTimeout(settings.readTimeout())
        .callTimeout(settings.callTimeout())
        .connectionPool(new ConnectionPool(Math.max(8, settings.concurrency() * 2), 2, TimeUnit.MINUTES))
        .build();
    this.userAgent = settings.userAgentHeader();
    this.maxBodySize = settings.maxBodySize();
  }

  /** The shared client, for other fetches of the crawl (robots.txt). */
  public OkHttpClient client() {
    return client;
  }

  /** The calls {@link #cancelAll()} cancels; other fetches of the crawl (robots.txt) track theirs here too. */
  public CallTracker calls() {
    return calls;
  }

  /**
   * GETs {@code url}. Never throws for network or HTTP errors: they come back in the response's
   * {@link FetchResponse#errorKind()}.
   *
   * @param keepBody whether to keep the body bytes (for pages to parse) or only count them
   */
  public FetchResponse fetch(String url, boolean keepBody) {
    Instant startedAt = Instant.now();
    long start = System.nanoTime();
    Request request = new Request.Builder().url(url).header("User-Agent", userAgent)
        .header("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8").build();
    Call call = client.newCall(request);
    Integer status = null;
    CallTracker.Tracked tracked = calls.track(call);
    try (Response response = call.execute()) {
      status = response.code();
      ResponseBody body = response.body();
      MediaType mediaType = body.contentType();
      String contentType = mediaType == null ? null : (mediaType.type() + "/" + mediaType.subtype()).toLowerCase(Locale.ROOT);
      String charset = mediaType == null ? null : mediaType.parameter("charset");
      String location = response.header("Location");
      Duration retryAfter = parseRetryAfter(response.header("Retry-After"));
      String robotsTag = response.header("X-Robots-Tag");
      boolean keep = keepBody && ("text/html".equals(contentType) || "application/xhtml+xml".equals(contentType));
      Buffer kept = new Buffer();
      long read = 0;
      ErrorKind errorKind = null;
      String error = null;
      long declared = body.contentLength();
      if (declared > maxBodySize) {
        errorKind = ErrorKind.BODY_TOO_LARGE;
        error = "Content-Length " + declared + " exceeds the " + maxBodySize + "-byte limit";
      } else {
        BufferedSource source = body.source();
        Buffer chunk = new Buffer();
        long n;
        while ((n = source.read(chunk, READ_CHUNK)) != -1) {
          read += n;
          if (read > maxBodySize) {
            errorKind = ErrorKind.BODY_TOO_LARGE;
            error = "body exceeds the " + maxBodySize + "-byte limit";
            read = maxBodySize;
            break;
          }
          if (keep) {
            kept.write(chunk, n);
          } else {
            chunk.clear();
          }
        }
      }
      byte[] bytes = errorKind == null && keep ? kept.readByteArray() : new byte[0];
      return new FetchResponse(status, contentType, charset, location, retryAfter, robotsTag, bytes, read,
          startedAt, elapsedMillis(start), errorKind, error);
    } catch (IOException e) {
      return new FetchResponse(status, null, null, null, null, null, new byte[0], 0, startedAt,
          elapsedMillis(start), classify(e), describe(e));
    } finally {
      tracked.close();
    }
  }

  /**
   * Aborts every call in flight, body reads and robots.txt fetches included, and every call started afterwards;
   * their fetches return a network error.
   */
  public void cancelAll() {
    calls.cancelAll();
    client.dispatcher().cancelAll();
  }

  @Override
  public void close() {
    client.dispatcher().executorService().shutdown();
    client.connectionPool().evictAll();
  }

  static ErrorKind classify(IOException e) {
    if (e instanceof SocketTimeoutException || (e instanceof InterruptedIOException && "timeout".equals(e.getMessage()))) {
      return ErrorKind.TIMEOUT;
    }
    FailureCause cause = FailureCause.of(e);
    if (cause.tls()) {
      return ErrorKind.TLS;
    }
    return cause.permanent() ? ErrorKind.CONNECT : ErrorKind.NETWORK;
  }

  static String describe(IOException e) {
    return FailureCause.of(e).description();
  }

  /** Retry-After as delta-seconds or an HTTP date; {@code null} if absent or unreadable. */
  static Duration parseRetryAfter(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String v = value.trim();
    if (v.chars().allMatch(Character::isDigit)) {
      return Duration.ofSeconds(Long.parseLong(v.length() > 9 ? "999999999" : v));
    }
    try {
      Duration d = Duration.between(Instant.now(), ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME));
      return d.isNegative() ? Duration.ZERO : d;
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static long elapsedMillis(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }
}
