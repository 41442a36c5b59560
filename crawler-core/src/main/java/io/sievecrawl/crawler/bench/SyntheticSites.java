package io.sievecrawl.crawler.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Many generated sites on one loopback server, told apart by the Host header: site {@code i} is
 * {@code site-NNNNN.bench.test} on the server's port, a copy of one {@link SyntheticPages} site, its absolute links to
 * itself. The host names resolve nowhere: a crawl pins them to the loopback address ({@code fetch.resolve}), as a
 * broad crawl of a staging server would. Counts the requests per site and page.
 */
public final class SyntheticSites implements AutoCloseable {
  private static final String SUFFIX = ".bench.test";

  private final int sites;
  private final SyntheticPages pages;
  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final AtomicIntegerArray requests;
  private final int port;
  private final java.util.concurrent.atomic.AtomicLong firstRequestNanos = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.CountDownLatch firstRequest = new java.util.concurrent.CountDownLatch(1);

  private SyntheticSites(int sites, int pagesPerSite, int fanOut) throws IOException {
    this.sites = sites;
    this.pages = new SyntheticPages(pagesPerSite, fanOut);
    this.requests = new AtomicIntegerArray(Math.multiplyExact(sites, pagesPerSite));
    SyntheticSite.configureJdkServer();
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
    this.port = server.getAddress().getPort();
  }

  /** Starts {@code sites} sites of {@code pagesPerSite} pages with {@code fanOut} random links each. */
  public static SyntheticSites start(int sites, int pagesPerSite, int fanOut) throws IOException {
    if (sites < 1 || pagesPerSite < 1 || fanOut < 0) {
      throw new IllegalArgumentException("sites and pages must be at least 1, fan-out at least 0, were " + sites
          + ", " + pagesPerSite + ", " + fanOut);
    }
    return new SyntheticSites(sites, pagesPerSite, fanOut);
  }

  /** The host name of site {@code site}. */
  public String host(int site) {
    return String.format(Locale.ROOT, "site-%05d", site) + SUFFIX;
  }

  /** The sites' home pages. */
  public List<String> rootUrls() {
    List<String> roots = new ArrayList<>(sites);
    for (int i = 0; i < sites; i++) {
      roots.add(origin(i) + "/");
    }
    return roots;
  }

  /** Pins of every site's host to the loopback address, as {@code fetch.resolve} takes them. */
  public String pins() {
    StringBuilder pins = new StringBuilder();
    String address = server.getAddress().getAddress().getHostAddress();
    for (int i = 0; i < sites; i++) {
      pins.append(pins.isEmpty() ? "" : " ").append(host(i)).append(':').append(port).append(':').append(address);
    }
    return pins.toString();
  }

  private String origin(int site) {
    return "http://" + host(site) + ":" + port;
  }

  public int sites() {
    return sites;
  }

  public int pagesPerSite() {
    return pages.pages();
  }

  /** Pages of each site requested at least once so far. */
  public int[] pagesServedPerSite() {
    int[] served = new int[sites];
    for (int s = 0; s < sites; s++) {
      for (int p = 0; p < pages.pages(); p++) {
        served[s] += requests.get(s * pages.pages() + p) > 0 ? 1 : 0;
      }
    }
    return served;
  }

  /** Requests for pages beyond the first one per page, over all sites. */
  public int repeatedRequests() {
    int repeats = 0;
    for (int i = 0; i < requests.length(); i++) {
      repeats += Math.max(0, requests.get(i) - 1);
    }
    return repeats;
  }

  /** Waits for the first request of any kind; returns its {@code System.nanoTime()}. */
  public long awaitFirstRequest() throws InterruptedException {
    firstRequest.await();
    return firstRequestNanos.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    // real time: the benchmark that serves the sites measures from here (see the package notes)
    if (firstRequest.getCount() > 0 && firstRequestNanos.compareAndSet(0, System.nanoTime())) {
      firstRequest.countDown();
    }
    try (exchange) {
      int site = siteOf(exchange.getRequestHeaders().getFirst("Host"));
      int page = site < 0 ? -1 : pages.pageOf(exchange.getRequestURI().getPath());
      if (page < 0) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      requests.incrementAndGet(site * pages.pages() + page);
      byte[] body = pages.render(page, origin(site)).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  /** The site a Host header names, or -1. */
  private int siteOf(String hostHeader) {
    if (hostHeader == null || !hostHeader.startsWith("site-")) {
      return -1;
    }
    int end = hostHeader.indexOf(SUFFIX);
    try {
      int site = Integer.parseInt(hostHeader.substring(5, end < 0 ? hostHeader.length() : end));
      return site >= 0 && site < sites ? site : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The median and the 10th percentile of {@code counts}. */
  public static int[] medianAndP10(int[] counts) {
    int[] sorted = counts.clone();
    Arrays.sort(sorted);
    return new int[] {sorted[sorted.length / 2], sorted[sorted.length / 10]};
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
