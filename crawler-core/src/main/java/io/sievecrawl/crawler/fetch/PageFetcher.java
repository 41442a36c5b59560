package io.sievecrawl.crawler.fetch;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.FetchSettings;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import okhttp3.Call;
import okhttp3.Cookie;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Fetches one URL with a shared {@link OkHttpClient}: no automatic redirects (the crawler follows them hop by hop),
 * connect/read/whole-call timeouts, cookies kept as a browser keeps them ({@link BoundedCookieJar}, unless
 * fetch.cookies is off), and the body read as a stream and cut off at the size cap, which counts the bytes received.
 * The crawler decodes gzip itself ({@link Bodies}), so a capture sees the bytes as sent. Requests go through the
 * proxies {@link ProxyRoutes} chooses, and carry the user's extra headers ({@link RequestHeaders}). TLS trusts the
 * JDK's certificate authorities unless the settings say more ({@link TlsTrust}).
 *
 * <p>Its parts, one job each: {@link ClientWiring} builds the client from the settings, {@link PageRequest} the GET
 * for a {@link Reading} (a page's, a sitemap's or a requisite's), and {@link ResponseReader} turns the exchange into
 * a {@link FetchResponse}, its body read within its cap. This class holds them together, with the cookies, the
 * connection pools and the calls in flight.
 *
 * <p>Thread-safe; one instance serves every worker. {@link #cancelAll()} aborts calls in flight (for a stop that
 * must end quickly). Made by a {@link Builder}.
 */
public final class PageFetcher implements AutoCloseable {
  /** The estimated heap the crawl's cookies may take (fetch.cookies). */
  private static final long COOKIE_MEMORY = 16_000_000;

  private final OkHttpClient client; // cleartext: the shards' dispatcher and settings; its own pool is not used
  private final ConnectionPools pools;
  private final ConnectionEvents connections = new ConnectionEvents();
  private final CallTracker calls = new CallTracker();
  private final String userAgent;
  private final ResponseReader reader;
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
    FetchSettings fetch = settings.fetch();
    this.clock = b.clock;
    this.ticker = b.ticker;
    this.cookies = fetch.cookies() ? new BoundedCookieJar(COOKIE_MEMORY, clock) : null;
    this.client = ClientWiring.build(fetch, b.mayBeLocal, b.takesCredentials, b.capture, cookies, connections);
    this.pools = ConnectionPools.of(client, ClientWiring.tls(client, fetch),
        ConnectionPools.idleBudget(settings.crawl().concurrency()),
        ConnectionPools.keepAlive(settings.politeness().delay()));
    this.userAgent = fetch.userAgentHeader();
    this.reader = new ResponseReader(fetch.maxBodySize(), settings.requisites().maxBodySize(), b.capture != null,
        b.payloadDigests, clock, ticker);
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
    return fetch(url, Reading.page(keepBody, anyType), last, gate);
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
    return fetch(url, Reading.requisite(foreign, readsHtml), last, gate);
  }

  private FetchResponse fetch(Url url, Reading reading, Revalidation last, SendGate gate) {
    Instant startedAt = clock.instant();
    long start = ticker.nanos();
    HttpUrl target = HttpUrl.get(url.toString()); // the one place a crawl's URL becomes OkHttp's
    CaptureNote note = new CaptureNote(); // how the archive stored the exchange, once the response is closed
    Request request = PageRequest.of(target, userAgent, reading, last, startedAt, gate, note);
    Call call = (reading.foreign() ? pools.bareClientFor(target) : pools.clientFor(target)).newCall(request);
    Integer status = null;
    CallTracker.Tracked tracked = calls.track(call);
    FetchResponse fetched;
    try (Response response = call.execute()) {
      status = response.code();
      fetched = reader.read(response, reading, startedAt, start);
    } catch (IOException e) {
      return reader.failed(status, startedAt, start, e);
    } finally {
      tracked.close();
    }
    return note.storedAs() == null ? fetched : fetched.withStoredAs(note.storedAs()); // recorded at the close
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
}
