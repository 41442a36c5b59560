package io.sievecrawl.crawler.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;
import javax.net.ssl.SSLContext;

/**
 * A generated web site ({@link SyntheticPages}) served on the loopback interface, for benchmarks and tests. Counts
 * the requests for each page so a run can check every page was fetched once. Every page uses one style sheet,
 * {@value #STYLE_SHEET}, and shows an image of its own, {@code /img/N.png}: page requisites, whose requests are counted
 * apart.
 */
public final class SyntheticSite implements AutoCloseable {
  /** The path of the style sheet every page uses. */
  public static final String STYLE_SHEET = "/static/site.css";
  private static final byte[] STYLE = "body { font-family: serif; max-width: 40em }\n"
      .getBytes(StandardCharsets.UTF_8);
  private static final byte[] PNG_HEAD = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  private final java.util.concurrent.atomic.AtomicInteger styleSheetRequests =
      new java.util.concurrent.atomic.AtomicInteger();
  private final int pages;
  private final SyntheticPages site;
  private final String origin; // http://127.0.0.1:port, or https://
  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final AtomicIntegerArray requests;
  private final AtomicIntegerArray imageRequests;
  private final AtomicIntegerArray versions; // a page's content changes with its version; -1: removed (404)
  private final java.util.concurrent.atomic.AtomicInteger notModified = new java.util.concurrent.atomic.AtomicInteger();
  private final AtomicLong bytesServed = new AtomicLong();
  private volatile long responseDelayMillis;
  private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
  private final java.util.concurrent.atomic.AtomicInteger maxInFlight = new java.util.concurrent.atomic.AtomicInteger();

  private SyntheticSite(int pages, int fanOut, long responseDelayMillis, boolean varied, SSLContext tls)
      throws IOException {
    this.pages = pages;
    this.site = new SyntheticPages(pages, fanOut, varied);
    this.responseDelayMillis = responseDelayMillis;
    this.requests = new AtomicIntegerArray(pages);
    this.imageRequests = new AtomicIntegerArray(pages);
    this.versions = new AtomicIntegerArray(pages);
    configureJdkServer();
    InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    if (tls == null) {
      this.server = HttpServer.create(loopback, 4096);
    } else {
      HttpsServer https = HttpsServer.create(loopback, 4096);
      https.setHttpsConfigurator(new HttpsConfigurator(tls));
      this.server = https;
    }
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
    this.origin = (tls == null ? "http://" : "https://") + server.getAddress().getAddress().getHostAddress() + ":"
        + server.getAddress().getPort();
  }

  /**
   * Sets the JDK server up as a web server would be, before its classes load and read the settings once: Nagle's
   * algorithm off (by default on, it holds small responses back for tens of milliseconds), and room for as many idle
   * connections as a broad crawl keeps, one per site (by default it keeps 200 and closes the others).
   */
  static void configureJdkServer() {
    System.setProperty("sun.net.httpserver.nodelay", "true");
    if (System.getProperty("sun.net.httpserver.maxIdleConnections") == null) {
      System.setProperty("sun.net.httpserver.maxIdleConnections", "100000");
    }
  }

  /** Starts a site of {@code pages} pages with {@code fanOut} random links each, on an ephemeral loopback port. */
  public static SyntheticSite start(int pages, int fanOut) throws IOException {
    return start(pages, fanOut, 0);
  }

  /**
   * As {@link #start(int, int)}, with every page answered after {@code responseDelayMillis} (a server that takes
   * time, so that overlapping requests show in {@link #maxConcurrentRequests()}).
   */
  public static SyntheticSite start(int pages, int fanOut, long responseDelayMillis) throws IOException {
    if (pages < 1 || fanOut < 0 || responseDelayMillis < 0) {
      throw new IllegalArgumentException("pages must be at least 1, fan-out and delay at least 0, were " + pages + ", "
          + fanOut + ", " + responseDelayMillis);
    }
    return new SyntheticSite(pages, fanOut, responseDelayMillis, false, null);
  }

  /**
   * As {@link #start(int, int)}, with pages of varied markup (see {@link SyntheticPages}), a third of them sent
   * gzip-coded to a client that accepts it and a fifth in windows-1252, named only by a meta tag: for a training run,
   * which should see what real sites send.
   */
  public static SyntheticSite startVaried(int pages, int fanOut) throws IOException {
    return startVaried(pages, fanOut, null);
  }

  /**
   * As {@link #startVaried(int, int)}, over https with the server's key and certificate of {@code tls} when it is
   * not null: the root URL is then {@code https://127.0.0.1:port/}.
   */
  public static SyntheticSite startVaried(int pages, int fanOut, SSLContext tls) throws IOException {
    if (pages < 1 || fanOut < 0) {
      throw new IllegalArgumentException("pages must be at least 1, fan-out at least 0, were " + pages + ", "
          + fanOut);
    }
    return new SyntheticSite(pages, fanOut, 0, true, tls);
  }

  /** From now on, answers every page after {@code millis}. */
  public void setResponseDelay(long millis) {
    this.responseDelayMillis = millis;
  }

  /** The most page requests this site was ever answering at once. */
  public int maxConcurrentRequests() {
    return maxInFlight.get();
  }

  /** The site's root URL, {@code http://127.0.0.1:port/} (or https). */
  public String rootUrl() {
    return origin + "/";
  }

  public int pages() {
    return pages;
  }

  /** Pages requested exactly once so far. */
  public int pagesServedOnce() {
    int once = 0;
    for (int i = 0; i < pages; i++) {
      once += requests.get(i) == 1 ? 1 : 0;
    }
    return once;
  }

  /** Pages never requested so far. */
  public int pagesNeverServed() {
    int never = 0;
    for (int i = 0; i < pages; i++) {
      never += requests.get(i) == 0 ? 1 : 0;
    }
    return never;
  }

  /** Requests for pages beyond the first one per page. */
  public int repeatedRequests() {
    int repeats = 0;
    for (int i = 0; i < pages; i++) {
      repeats += Math.max(0, requests.get(i) - 1);
    }
    return repeats;
  }

  /** Body bytes sent. */
  public long bytesServed() {
    return bytesServed.get();
  }

  /** Requests answered 304 Not Modified: their If-None-Match named the page's current ETag. */
  public int notModifiedAnswers() {
    return notModified.get();
  }

  /** Images requested exactly once so far. */
  public int imagesServedOnce() {
    int once = 0;
    for (int i = 0; i < pages; i++) {
      once += imageRequests.get(i) == 1 ? 1 : 0;
    }
    return once;
  }

  /** Requests for images beyond the first one per image. */
  public int repeatedImageRequests() {
    int repeats = 0;
    for (int i = 0; i < pages; i++) {
      repeats += Math.max(0, imageRequests.get(i) - 1);
    }
    return repeats;
  }

  /** Images never requested so far. */
  public int imagesNeverServed() {
    int never = 0;
    for (int i = 0; i < pages; i++) {
      never += imageRequests.get(i) == 0 ? 1 : 0;
    }
    return never;
  }

  /** Requests for the style sheet, {@value #STYLE_SHEET}. */
  public int styleSheetRequests() {
    return styleSheetRequests.get();
  }

  /** Forgets the requests counted so far, as if the site had just started (for a second crawl of it). */
  public void resetCounts() {
    styleSheetRequests.set(0);
    for (int i = 0; i < pages; i++) {
      imageRequests.set(i, 0);
    }
    for (int i = 0; i < pages; i++) {
      requests.set(i, 0);
    }
    notModified.set(0);
    bytesServed.set(0);
  }

  /** Changes page {@code page}'s content (and so its ETag), as an edit of the site would. */
  public void change(int page) {
    versions.incrementAndGet(page);
  }

  /** Removes page {@code page}: it answers 404 from now on, though pages still link to it. */
  public void remove(int page) {
    versions.set(page, -1);
  }

  /** The URL of page {@code page}. */
  public String url(int page) {
    return origin + SyntheticPages.pathOf(page);
  }

  /** The URL of the image page {@code page} shows. */
  public String imageUrl(int page) {
    return origin + SyntheticPages.imageOf(page);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      if (path.equals(STYLE_SHEET)) {
        styleSheetRequests.incrementAndGet();
        send(exchange, STYLE, "text/css", false);
        return;
      }
      int image = site.imageOf(path);
      if (image >= 0) {
        imageRequests.incrementAndGet(image);
        byte[] png = java.util.Arrays.copyOf(PNG_HEAD, PNG_HEAD.length + 4);
        java.nio.ByteBuffer.wrap(png).putInt(PNG_HEAD.length, image); // an image of its own for each page
        send(exchange, png, "image/png", false);
        return;
      }
      int page = site.pageOf(path);
      if (page < 0) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      requests.incrementAndGet(page);
      maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      try {
        if (responseDelayMillis > 0) {
          Thread.sleep(responseDelayMillis);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        inFlight.decrementAndGet();
      }
      int version = versions.get(page);
      if (version < 0) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      String html = site.render(page, origin);
      if (version != 0) {
        html += "<!-- version " + version + " -->";
      }
      boolean latin = site.varied() && page % 5 == 2;
      byte[] body = latin ? html.replace("<meta charset=\"utf-8\">", "<meta charset=\"windows-1252\">")
          .getBytes(Charset.forName("windows-1252")) : html.getBytes(StandardCharsets.UTF_8);
      String accepted = exchange.getRequestHeaders().getFirst("Accept-Encoding");
      boolean gzip = site.varied() && page % 3 == 1 && accepted != null && accepted.contains("gzip");
      if (send(exchange, body, latin ? "text/html" : "text/html; charset=utf-8", gzip)) {
        notModified.incrementAndGet();
      }
    }
  }

  /**
   * Sends {@code body} as nginx does: with an ETag of the content, or a 304 without a body when the request's
   * If-None-Match names it (then returns true); gzip-compressed if {@code gzip}.
   */
  private boolean send(HttpExchange exchange, byte[] body, String type, boolean gzip) throws IOException {
    String etag = "\"" + Integer.toHexString(java.util.Arrays.hashCode(body)) + "-" + body.length + "\"";
    exchange.getResponseHeaders().set("ETag", etag);
    if (etag.equals(exchange.getRequestHeaders().getFirst("If-None-Match"))) {
      exchange.sendResponseHeaders(304, -1);
      return true;
    }
    exchange.getResponseHeaders().set("Content-Type", type);
    byte[] sent = gzip ? gzip(body) : body;
    if (gzip) {
      exchange.getResponseHeaders().set("Content-Encoding", "gzip");
    }
    exchange.sendResponseHeaders(200, sent.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(sent);
    }
    bytesServed.addAndGet(sent.length);
    return false;
  }

  private static byte[] gzip(byte[] body) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 3);
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(body);
    }
    return out.toByteArray();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
