package io.sievecrawl.crawler.fetch;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.FetchSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.url.Url;
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
import java.util.concurrent.TimeUnit;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Predicate;
import okhttp3.Call;
import okhttp3.Cookie;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches one URL with a shared {@link OkHttpClient}: no automatic redirects (the crawler follows them hop by hop),
 * connect/read/whole-call timeouts, cookies kept as a browser keeps them ({@link BoundedCookieJar}, unless
 * fetch.cookies is off), and the body read as a stream and cut off at the size cap, which counts the bytes received.
 * The crawler decodes gzip itself ({@link Bodies}), so a capture sees the bytes as sent. Requests go through the
 * proxies {@link ProxyRoutes} chooses, and carry the user's extra headers ({@link RequestHeaders}). TLS trusts the
 * JDK's certificate authorities unless the settings say more ({@link TlsTrust}).
 *
 * <p>Thread-safe; one instance serves every worker. {@link #cancelAll()} aborts calls in flight (for a stop that
 * must end quickly). Made by a {@link Builder}.
 */
public final class PageFetcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PageFetcher.class);
  /** The estimated heap the crawl's cookies may take (fetch.cookies). */
  private static final long COOKIE_MEMORY = 16_000_000;

  private final OkHttpClient client; // the shards' dispatcher and settings; its own pool is not used
  private final ConnectionPools pools;
  private final ConnectionEvents connections = new ConnectionEvents();
  private final CallTracker calls = new CallTracker();
  private final String userAgent;
  private final long maxBodySize;
  private final long maxRequisiteSize;
  private final boolean capturing;
  private final boolean payloadDigests;
  private final BoundedCookieJar cookies; // null when fetch.cookies is off
  private final Clock clock;
  private final Ticker ticker;

  /**
   * A fetcher for {@code settings} that may fetch any host, sends the extra headers to every origin and captures
   * nothing, unless the builder says otherwise.
   *
   * @param clock the wall clock: when each fetch started, Retry-After dates, cookie expiry
   * @param ticker the crawl's ticker: how long each fetch took
   */
  public static Builder builder(CrawlSettings settings, Clock clock, Ticker ticker) {
    return new Builder(settings, clock, ticker);
  }

  /** What a fetcher may fetch, whom it sends credentials and where its exchanges go. */
  public static final class Builder {
    private final CrawlSettings settings;
    private final Clock clock;
    private final Ticker ticker;
    private Predicate<String> mayBeLocal = host -> true;
    private Predicate<String> takesCredentials = origin -> true;
    private Interceptor capture;
    private boolean payloadDigests = true;

    private Builder(CrawlSettings settings, Clock clock, Ticker ticker) {
      this.settings = Objects.requireNonNull(settings, "settings");
      this.clock = Objects.requireNonNull(clock, "clock");
      this.ticker = Objects.requireNonNull(ticker, "ticker");
    }

    /**
     * Refuses hosts resolving only to local addresses (loopback, private, link-local) unless {@code mayBeLocal}
     * accepts them: see {@link PrivateAddresses}.
     */
    public Builder mayBeLocal(Predicate<String> mayBeLocal) {
      this.mayBeLocal = Objects.requireNonNull(mayBeLocal, "mayBeLocal");
      return this;
    }

    /**
     * Sends the credentials among the extra headers ({@code fetch.header}: Authorization, Cookie) only to origins
     * ({@code scheme://host[:port]}) {@code takesCredentials} accepts.
     */
    public Builder takesCredentials(Predicate<String> takesCredentials) {
      this.takesCredentials = Objects.requireNonNull(takesCredentials, "takesCredentials");
      return this;
    }

    /**
     * Sends every exchange, robots.txt included, through {@code capture} as well (a {@link CaptureInterceptor}). A
     * capturing fetcher speaks HTTP/1.1 only, so that what is captured is what went over the wire.
     */
    public Builder capture(Interceptor capture) {
      this.capture = Objects.requireNonNull(capture, "capture");
      return this;
    }

    /**
     * Whether each body's payload digest is computed as it is read ({@link FetchResponse#payloadDigest()}): for a
     * crawl that archives or keeps its visits for a recrawl to compare. Default: true.
     */
    public Builder payloadDigests(boolean payloadDigests) {
      this.payloadDigests = payloadDigests;
      return this;
    }

    /** @throws IllegalArgumentException if a proxy environment variable holds no usable proxy URL, naming it */
    public PageFetcher build() {
      return new PageFetcher(this);
    }
  }

  private PageFetcher(Builder b) {
    CrawlSettings settings = b.settings;
    Predicate<String> takesCredentials = b.takesCredentials;
    Interceptor capture = b.capture;
    this.clock = b.clock;
    this.ticker = b.ticker;
    this.payloadDigests = b.payloadDigests;
    FetchSettings fetch = settings.fetch();
    ProxyRoutes proxies = ProxyRoutes.of(fetch.proxy(), System.getenv());
    if (!proxies.describe().equals("none")) {
      log.info("proxies: {}", proxies.describe());
    }
    OkHttpClient.Builder builder = proxies.applyTo(new OkHttpClient.Builder())
        .dns(new PinnedDns(fetch.pins(), // a proxy may well be on the local network
            PrivateAddresses.asDns(b.mayBeLocal.or(proxies::isProxyHost))))
        .followRedirects(false)
        .followSslRedirects(false)
        .connectTimeout(fetch.connectTimeout())
        .readTimeout(fetch.readTimeout())
        .writeTimeout(fetch.readTimeout())
        .callTimeout(fetch.callTimeout())
        .eventListener(connections);
    TlsTrust.applyTo(builder, fetch);
    if (fetch.insecureTls()) {
      log.warn("{} is on: TLS certificates are not checked, so anyone between the crawler and a site can pose as"
          + " the site", Setting.INSECURE_TLS.key());
    }
    this.cookies = fetch.cookies() ? new BoundedCookieJar(COOKIE_MEMORY, clock) : null;
    if (cookies != null) {
      builder.cookieJar(cookies);
    }
    builder.addNetworkInterceptor(SendGate.INTERCEPTOR); // first: a request it refuses is neither changed nor recorded
    if (!fetch.headers().isEmpty()) {
      builder.addNetworkInterceptor(new RequestHeaders(fetch.headers(), takesCredentials)); // before the capture
    }
    if (capture != null) {
      builder.addNetworkInterceptor(capture).protocols(List.of(Protocol.HTTP_1_1));
    }
    this.client = builder.build();
    this.pools = ConnectionPools.of(client, ConnectionPools.idleBudget(settings.crawl().concurrency()),
        ConnectionPools.keepAlive(settings.politeness().delay()));
    this.capturing = capture != null;
    this.userAgent = fetch.userAgentHeader();
    this.maxBodySize = fetch.maxBodySize();
    this.maxRequisiteSize = settings.requisites().maxBodySize();
  }

  /** The crawl's clients, for its other fetches (robots.txt), so that they share its connections. */
  public ConnectionPools clients() {
    return pools;
  }

  /** Connections opened so far, robots.txt fetches' included (attempts, failed ones too). */
  public long connectionsOpened() {
    return connections.opened();
  }

  /** TLS handshakes completed so far. */
  public long tlsHandshakes() {
    return connections.handshakes();
  }

  /** What a fetch keeps of the body, and how it asks: a page's, a sitemap's or a requisite's. */
  private record Reading(boolean keepBody, boolean anyType, boolean requisite, boolean foreign, boolean readsHtml) {}

  /** The cookies the crawl keeps that have not expired; none when fetch.cookies is off. */
  public List<Cookie> cookies() {
    return cookies == null ? List.of() : cookies.snapshot();
  }

  /** Whether a request to {@code url} would now carry a cookie; false when fetch.cookies is off. */
  public boolean hasCookiesFor(String url) {
    HttpUrl parsed = cookies == null ? null : HttpUrl.parse(url);
    return parsed != null && !cookies.loadForRequest(parsed).isEmpty();
  }

  /** Keeps {@code kept} (an earlier run's cookies) as if responses had set them; ignored when fetch.cookies is off. */
  public void restoreCookies(List<Cookie> kept) {
    if (cookies != null) {
      cookies.keep(kept);
    }
  }

  /** Whether {@code mediaType} is one that sitemaps and feeds come as. */
  public static boolean isXml(String mediaType) {
    return mediaType != null && (mediaType.equals("application/xml") || mediaType.equals("text/xml")
        || mediaType.equals("application/rss+xml") || mediaType.equals("application/atom+xml"));
  }

  /** The calls {@link #cancelAll()} cancels; other fetches of the crawl (robots.txt) track theirs here too. */
  public CallTracker calls() {
    return calls;
  }

  /**
   * GETs {@code url}. Never throws for network or HTTP errors: they come back in the response's
   * {@link FetchResponse#errorKind()}.
   *
   * @param keepBody whether to keep the body bytes of an HTML page or an XML document (to parse) or only count them
   */
  public FetchResponse fetch(Url url, boolean keepBody) {
    return fetch(url, keepBody, false);
  }

  /**
   * As {@link #fetch(Url, boolean)}; {@code anyType} keeps a body of any content type (a sitemap), not only HTML.
   */
  public FetchResponse fetch(Url url, boolean keepBody, boolean anyType) {
    return fetch(url, keepBody, anyType, null);
  }

  /**
   * As {@link #fetch(Url, boolean, boolean)}, a conditional GET when {@code last} (what the last visit learned, or
   * {@code null}) holds validators: a server that finds the page unchanged answers 304 without a body. The request
   * carries {@code last} as its tag, for an archive to record an unchanged response as a revisit.
   */
  public FetchResponse fetch(Url url, boolean keepBody, boolean anyType, Revalidation last) {
    return fetch(url, keepBody, anyType, last, null);
  }

  /**
   * As {@link #fetch(Url, boolean, boolean, Revalidation)}, asking {@code gate} (when not {@code null}) as the request
   * is about to go on the wire: a refusal ends the fetch with a network error and nothing sent, the gate knowing why.
   */
  public FetchResponse fetch(Url url, boolean keepBody, boolean anyType, Revalidation last, SendGate gate) {
    return fetch(url, new Reading(keepBody, anyType, false, false, false), last, gate);
  }

  /**
   * GETs a page's requisite (a style sheet, an image, a script...) as a browser asks for one ({@code Accept: *}{@code
   * /*}), its body read up to requisites.max-body-size. A style sheet's body is kept, to read its own requisites, and
   * an HTML body when {@code readsHtml} (a requisite in the crawl's scope is read as a page), both up to
   * fetch.max-body-size.
   *
   * @param foreign whether its origin is outside the crawl's scope: the request then carries no extra header
   *     (fetch.header) and no cookie, and keeps none it is sent
   * @param last what the last visit learned, for a conditional GET, or {@code null}
   * @param gate asked as the request is about to go on the wire, or {@code null}
   */
  public FetchResponse fetchRequisite(Url url, boolean foreign, boolean readsHtml, Revalidation last, SendGate gate) {
    return fetch(url, new Reading(true, false, true, foreign, readsHtml), last, gate);
  }

  private FetchResponse fetch(Url url, Reading reading, Revalidation last, SendGate gate) {
    Instant startedAt = clock.instant();
    long start = ticker.nanos();
    HttpUrl target = HttpUrl.get(url.toString()); // the one place a crawl's URL becomes OkHttp's
    Request.Builder builder = new Request.Builder().url(target).header("User-Agent", userAgent)
        .header("Accept", reading.requisite() ? "*/*" : "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8")
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
    builder.tag(Instant.class, startedAt); // an archive dates the capture as the record is dated
    if (gate != null) {
      builder.tag(SendGate.class, gate);
    }
    CaptureNote note = new CaptureNote(); // how the archive stored the exchange, once the response is closed
    builder.tag(CaptureNote.class, note);
    Request request = builder.build();
    Call call = (reading.foreign() ? pools.bareClientFor(target) : pools.clientFor(target)).newCall(request);
    Integer status = null;
    CallTracker.Tracked tracked = calls.track(call);
    FetchResponse fetched;
    try (Response response = call.execute()) {
      status = response.code();
      ResponseBody body = response.body();
      ContentTypeHeader header = ContentTypeHeader.parse(response.header("Content-Type"));
      String contentType = header.mediaType();
      String charset = header.charset();
      String location = response.header("Location");
      Duration retryAfter = parseRetryAfter(response.header("Retry-After"), clock);
      String robotsTag = response.header("X-Robots-Tag");
      String encoding = response.header("Content-Encoding");
      boolean parse = parses(reading, status, contentType);
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
        errorKind = classify(raw.cutOff());
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
      fetched = new FetchResponse(status, contentType, charset, location, retryAfter, robotsTag, setsCookie, bytes,
          raw.length(), truncated, startedAt, elapsedMillis(start), errorKind, error, response.header("ETag"),
          response.header("Last-Modified"), raw.payloadDigest(), null);
    } catch (IOException e) {
      return new FetchResponse(status, null, null, null, null, null, false, new byte[0], 0, false, startedAt,
          elapsedMillis(start), classify(e), describe(e));
    } finally {
      tracked.close();
    }
    return note.storedAs() == null ? fetched : fetched.withStoredAs(note.storedAs()); // recorded at the close
  }

  /**
   * Whether the body is kept to be read: a 2xx HTML page, XML document (a sitemap or a feed, perhaps) or, for a
   * sitemap, anything; a requisite's style sheet, or its HTML when it is read as a page. A page without a usable
   * Content-Type is kept if it starts as HTML, as a browser would show it.
   */
  private static boolean parses(Reading reading, int status, String contentType) {
    if (!reading.keepBody() || status / 100 != 2) {
      return false;
    }
    boolean html = "text/html".equals(contentType) || "application/xhtml+xml".equals(contentType);
    boolean untyped = HtmlSniffer.typeUnknown(contentType);
    if (reading.requisite()) {
      return "text/css".equals(contentType) || reading.readsHtml() && (html || untyped);
    }
    return reading.anyType() || html || untyped || isXml(contentType);
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
    pools.close();
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
