package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Archives that replay as the page looked: a site whose pages use a style sheet (which imports another and sets a
 * background image), an image and a {@code srcset}, served as nginx serves files (an ETag, 304 to a matching
 * If-None-Match, without a Content-Type), is crawled with --warc and recrawled; the WACZ of the crawl directory holds
 * every requisite, and every page's newest capture (a revisit after the recrawl) and every requisite's resolve, as
 * ReplayWeb.page (wabac.js) and pywb resolve them, to status 200 with what the server sent: the logo's copy under
 * another name too, stored as a revisit of the logo, and after the recrawl as a revisit of that same capture.
 */
class RequisiteReplayTest {
  private static final int PAGES = 5;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  /** The site: paths to bodies and types; each path's requests are counted. */
  private static final class Site implements AutoCloseable {
    final Map<String, byte[]> bodies = new LinkedHashMap<>();
    final Map<String, String> types = new HashMap<>();
    final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    final HttpServer server;

    Site() throws IOException {
      for (int i = 0; i < PAGES; i++) {
        String next = i + 1 < PAGES ? "<a href=\"/p" + (i + 1) + ".html\">next</a>" : "";
        put(i == 0 ? "/" : "/p" + i + ".html", "text/html", ("<!doctype html><html><head><title>Page " + i
            + "</title><link rel=\"stylesheet\" href=\"/css/site.css\"></head><body><h1>Page " + i + "</h1>"
            + "<img src=\"/img/photo-" + i + ".jpg\" alt=\"\">"
            + "<img src=\"/img/logo.png\" srcset=\"/img/logo-2x.png 2x, /img/logo-3x.png 3x\" alt=\"\">"
            + (i == 2 ? "<img src=\"/img/logo-copy.png\" alt=\"\">" : "") // the logo's bytes under another name
            + next + "</body></html>\n").getBytes(StandardCharsets.UTF_8));
        put("/img/photo-" + i + ".jpg", "image/jpeg", image(100 + i));
      }
      put("/css/site.css", "text/css", "@import \"type.css\";\nbody { background: url(../img/bg.png) }\n"
          .getBytes(StandardCharsets.UTF_8));
      put("/css/type.css", "text/css", "@font-face { font-family: T; src: url(/fonts/t.woff2) format(\"woff2\") }\n"
          .getBytes(StandardCharsets.UTF_8));
      put("/img/bg.png", "image/png", image(1));
      put("/img/logo.png", "image/png", image(2));
      put("/img/logo-copy.png", "image/png", image(2));
      put("/img/logo-2x.png", "image/png", image(3));
      put("/img/logo-3x.png", "image/png", image(4));
      put("/fonts/t.woff2", "font/woff2", image(5));
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
      server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
      server.createContext("/", this::handle);
      server.start();
    }

    private void put(String path, String type, byte[] body) {
      bodies.put(path, body);
      types.put(path, type);
    }

    private static byte[] image(int seed) {
      byte[] bytes = new byte[2000 + seed];
      Arrays.fill(bytes, (byte) seed);
      return bytes;
    }

    String root() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
      try (exchange) {
        String path = exchange.getRequestURI().getPath();
        byte[] body = bodies.get(path);
        if (body == null) {
          exchange.sendResponseHeaders(404, -1);
          return;
        }
        requests.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
        String etag = "\"" + Integer.toHexString(Arrays.hashCode(body)) + "-" + body.length + "\"";
        exchange.getResponseHeaders().set("ETag", etag);
        if (etag.equals(exchange.getRequestHeaders().getFirst("If-None-Match"))) {
          exchange.sendResponseHeaders(304, -1); // as nginx: no Content-Type, no body
          return;
        }
        exchange.getResponseHeaders().set("Content-Type", types.get(path));
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }

  @Test
  void everyPageReplaysAtItsNewestCaptureAfterARecrawlAndEveryRequisiteIsArchived() throws Exception {
    try (Site site = new Site()) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.root() + "/\n");
      Path job = dir.resolve("job");
      Path results = dir.resolve("results.jsonl");
      String log = dir.resolve("sievecrawl.log").toString();
      Cmd crawl = Cmd.run("crawl", seeds.toString(), "--job", job.toString(), "-o", results.toString(), "--warc",
          dir.resolve("warc").toString(), "--log-file", log, "--delay", "0ms");
      assertEquals(ExitCodes.OK, crawl.exitCode(), crawl.toString());
      for (String path : site.bodies.keySet()) {
        assertEquals(1, site.requests.get(path) == null ? 0 : site.requests.get(path).get(), path + ": once");
      }
      int requisites = site.bodies.size() - PAGES;
      assertTrue(crawl.err().contains("crawl completed: " + PAGES + " pages and " + requisites + " requisites"),
          crawl.err());
      Map<String, JsonNode> records = new HashMap<>();
      for (String line : Files.readAllLines(results)) {
        JsonNode record = JSON.readTree(line);
        records.put(record.get("url").asText(), record);
      }
      assertEquals(site.root() + "/css/site.css", records.get(site.root() + "/img/bg.png").get("referrer").asText());
      assertTrue(records.get(site.root() + "/img/logo-3x.png").get("requisite").asBoolean());
      assertEquals(false, records.get(site.root() + "/p1.html").get("requisite").asBoolean());
      JsonNode copy = records.get(site.root() + "/img/logo-copy.png");
      assertEquals("identical-payload-digest", copy.get("revisit").asText(), "an identical payload is stored once");
      assertEquals(site.root() + "/img/logo.png", copy.get("capturedUrl").asText());

      Cmd recrawl = Cmd.run("recrawl", job.toString(), "--set", "recrawl.after=0s", "--log-file", log, "--delay",
          "0ms");
      assertEquals(ExitCodes.OK, recrawl.exitCode(), recrawl.toString());
      Path wacz = dir.resolve("crawl.wacz");
      Cmd packaged = Cmd.run("wacz", job.toString(), "-o", wacz.toString());
      assertEquals(ExitCodes.OK, packaged.exitCode(), packaged.toString());

      try (ReplayResolver replay = new ReplayResolver(wacz)) {
        for (Map.Entry<String, byte[]> e : site.bodies.entrySet()) {
          String url = site.root() + e.getKey();
          assertTrue(replay.hasCapture(url) || e.getKey().equals("/img/logo-copy.png"), "archived: " + url);
          for (String tool : List.of("wabac.js", "pywb")) {
            ReplayResolver.Replayed replayed = tool.equals("wabac.js") ? replay.wabac(url) : replay.pywb(url);
            assertNotNull(replayed, tool + " resolves " + url);
            assertEquals(200, replayed.status(), tool + ": " + url);
            assertEquals(site.types.get(e.getKey()), replayed.contentType(), tool + ": " + url);
            assertArrayEquals(e.getValue(), replayed.payload(), tool + ": " + url);
          }
        }
      }
    }
  }
}
