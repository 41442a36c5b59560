package io.sievecrawl.crawler.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A generated web site ({@link SyntheticPages}) served on the loopback interface, for benchmarks and tests. Counts
 * the requests for each page so a run can check every page was fetched once.
 */
public final class SyntheticSite implements AutoCloseable {
  private final int pages;
  private final SyntheticPages site;
  private final String origin; // http://127.0.0.1:port
  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final AtomicIntegerArray requests;
  private final AtomicLong bytesServed = new AtomicLong();
  private volatile long responseDelayMillis;
  private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
  private final java.util.concurrent.atomic.AtomicInteger maxInFlight = new java.util.concurrent.atomic.AtomicInteger();

  private SyntheticSite(int pages, int fanOut, long responseDelayMillis) throws IOException {
    this.pages = pages;
    this.site = new SyntheticPages(pages, fanOut);
    this.responseDelayMillis = responseDelayMillis;
    this.requests = new AtomicIntegerArray(pages);
    // The JDK server leaves Nagle's algorithm on by default, which holds small responses back for tens of
    // milliseconds; a web server would not. Read once, when the server classes load.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
    this.origin = "http://" + server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort();
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
    return new SyntheticSite(pages, fanOut, responseDelayMillis);
  }

  /** From now on, answers every page after {@code millis}. */
  public void setResponseDelay(long millis) {
    this.responseDelayMillis = millis;
  }

  /** The most page requests this site was ever answering at once. */
  public int maxConcurrentRequests() {
    return maxInFlight.get();
  }

  /** The site's root URL, {@code http://127.0.0.1:port/}. */
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

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
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
      byte[] body = site.render(page, origin).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
      bytesServed.addAndGet(body.length);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
