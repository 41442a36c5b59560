package io.sievecrawl.crawler.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A generated web site served on the loopback interface, for benchmarks: {@code pages} HTML pages of realistic size
 * (about 8 to 40 KB), each linking to its successor (so every page is reachable from {@code /}) and to
 * {@code fanOut} pages chosen at random, with links written in the forms real pages use (absolute, relative,
 * with fragments, repeated). Counts the requests for each page so a run can check every page was fetched once.
 */
public final class SyntheticSite implements AutoCloseable {
  private static final String FILLER = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod "
      + "tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation. ";

  private final int pages;
  private final int fanOut;
  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final AtomicIntegerArray requests;
  private final AtomicLong bytesServed = new AtomicLong();
  private volatile long responseDelayMillis;
  private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
  private final java.util.concurrent.atomic.AtomicInteger maxInFlight = new java.util.concurrent.atomic.AtomicInteger();

  private SyntheticSite(int pages, int fanOut, long responseDelayMillis) throws IOException {
    this.pages = pages;
    this.fanOut = fanOut;
    this.responseDelayMillis = responseDelayMillis;
    this.requests = new AtomicIntegerArray(pages);
    // The JDK server leaves Nagle's algorithm on by default, which holds small responses back for tens of
    // milliseconds; a web server would not. Read once, when the server classes load.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
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
    return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort() + "/";
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
      int page = pageOf(path);
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
      byte[] body = render(page).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
      bytesServed.addAndGet(body.length);
    }
  }

  private int pageOf(String path) {
    if (path.equals("/")) {
      return 0;
    }
    if (!path.startsWith("/section/") || !path.endsWith(".html")) {
      return -1;
    }
    try {
      int slash = path.lastIndexOf('/');
      int page = Integer.parseInt(path.substring(slash + 1, path.length() - 5));
      return page >= 0 && page < pages && path.equals(pathOf(page)) ? page : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static String pathOf(int page) {
    return page == 0 ? "/" : "/section/" + (page % 50) + "/" + page + ".html";
  }

  private String render(int page) {
    SplittableRandom random = new SplittableRandom(page * 0x9E3779B97F4A7C15L);
    StringBuilder html = new StringBuilder(48 * 1024);
    html.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>Page ").append(page)
        .append("</title><link rel=\"stylesheet\" href=\"/static/site.css\"></head><body><nav>")
        .append("<a href=\"/\">Home</a> <a href=\"/#top\">Top</a></nav><main><h1>Page ").append(page).append("</h1>");
    int paragraphs = 4 + random.nextInt(30);
    for (int p = 0; p < paragraphs; p++) {
      html.append("<p>").append(FILLER, 0, 60 + random.nextInt(FILLER.length() - 60)).append(FILLER).append("</p>\n");
    }
    html.append("<ul>");
    html.append("<li><a href=\"").append(pathOf((page + 1) % pages)).append("\">next</a></li>");
    for (int i = 0; i < fanOut; i++) {
      int target = random.nextInt(pages);
      String href = switch (i % 4) {
        case 0 -> pathOf(target);
        case 1 -> rootUrl().replaceAll("/$", "") + pathOf(target);
        case 2 -> pathOf(target) + "#section-" + i;
        default -> pathOf(target) + (target == 0 ? "" : "?");
      };
      html.append("<li><a href=\"").append(href).append("\">link ").append(i).append("</a></li>");
    }
    return html.append("</ul></main></body></html>\n").toString();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
