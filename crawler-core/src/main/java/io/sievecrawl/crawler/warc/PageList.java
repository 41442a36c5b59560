package io.sievecrawl.crawler.warc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sievecrawl.crawler.html.PageTitle;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.netpreserve.jwarc.HttpResponse;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;

/**
 * A WACZ package's {@code pages/pages.jsonl}, made from a sorted CDXJ index: a header line, then a line per page (a
 * URL that answered 200 with HTML) with the time of its newest capture (a revisit included: it replays as the capture
 * it repeats) and its title, read from its newest 200 response in the WARC files. ReplayWeb.page lists pages by title.
 */
final class PageList {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> PAGE_TYPES = Set.of("text/html", "application/xhtml+xml");
  private static final DateTimeFormatter CDX_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");
  private static final String REVISIT = "warc/revisit";
  /** The most of a page's body read for its title. */
  private static final int MAX_BODY = 16 * 1024 * 1024;

  private final Map<String, Path> warcs;
  private final BufferedWriter out;
  private final Main main;
  private final Map<String, Page> block = new LinkedHashMap<>(); // the URLs of one SURT key, in order
  private String blockKey;
  private long written;

  /** A URL's captures so far: the newest capture a page replays as, and its newest 200 HTML response. */
  private static final class Page {
    String newest; // CDX timestamp
    String filename;
    long offset = -1;
  }

  /**
   * The page a package opens with, and the time of its capture listed: the one named (a crawl's first seed), or when
   * none is, the page whose listed capture came first (the first listed of those at that time).
   */
  static final class Main {
    private final boolean named;
    private String url;
    private String timestamp;

    /** @param url the page named, or {@code null} for the one captured first */
    Main(String url) {
      this.named = url != null;
      this.url = url;
    }

    String url() {
      return url;
    }

    String timestamp() {
      return timestamp;
    }

    void listed(String page, String ts) {
      if (named ? page.equals(url) : timestamp == null || ts.compareTo(timestamp) < 0) {
        url = page;
        timestamp = ts;
      }
    }
  }

  private PageList(Map<String, Path> warcs, BufferedWriter out, Main main) {
    this.warcs = warcs;
    this.out = out;
    this.main = main;
  }

  /**
   * Writes the page list of {@code index} to {@code pages}; returns the index lines read and the pages written.
   *
   * @param warcs the WARC files the index names, by file name
   * @param main told of every page listed, to pick the package's main page
   */
  static long[] write(Path index, Map<String, Path> warcs, Path pages, Main main) throws IOException {
    long lines = 0;
    try (BufferedReader in = Files.newBufferedReader(index, StandardCharsets.UTF_8);
        BufferedWriter out = Files.newBufferedWriter(pages, StandardCharsets.UTF_8)) {
      out.write("{\"format\": \"json-pages-1.0\", \"id\": \"pages\", \"title\": \"All Pages\"}\n");
      PageList list = new PageList(warcs, out, main);
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lines++;
        list.add(line);
      }
      list.flush();
      return new long[] {lines, list.written};
    }
  }

  private void add(String line) throws IOException {
    int space = line.indexOf(' ');
    int json = line.indexOf('{');
    if (space < 0 || json < 0) {
      return;
    }
    String key = line.substring(0, space);
    if (!key.equals(blockKey)) {
      flush(); // lines are sorted by key, then time: a URL's lines are all in its key's block
      blockKey = key;
    }
    String timestamp = line.substring(space + 1, line.indexOf(' ', space + 1));
    JsonNode fields = JSON.readTree(line.substring(json));
    String mime = fields.path("mime").asText("");
    int semicolon = mime.indexOf(';');
    mime = (semicolon < 0 ? mime : mime.substring(0, semicolon)).trim();
    boolean revisit = mime.equals(REVISIT);
    boolean page = PAGE_TYPES.contains(mime) && "200".equals(fields.path("status").asText());
    if (!revisit && !page) {
      return;
    }
    Page p = block.computeIfAbsent(fields.path("url").asText(), url -> new Page());
    p.newest = timestamp;
    if (page) {
      p.filename = fields.path("filename").asText();
      p.offset = fields.path("offset").asLong(-1);
    }
  }

  private void flush() throws IOException {
    for (Map.Entry<String, Page> e : block.entrySet()) {
      Page p = e.getValue();
      if (p.filename == null) {
        continue; // only revisits: of a page that is not HTML, or whose capture is not in these files
      }
      ObjectNode line = JSON.createObjectNode();
      String ts = LocalDateTime.parse(p.newest, CDX_TIME).toInstant(ZoneOffset.UTC).toString();
      line.put("url", e.getKey());
      line.put("ts", ts);
      main.listed(e.getKey(), ts);
      String title = title(p);
      if (title != null && !title.isEmpty()) {
        line.put("title", title);
      }
      out.write(JSON.writeValueAsString(line));
      out.write('\n');
      written++;
    }
    block.clear();
  }

  /** The title of the page's response record; {@code null} when it has none or cannot be read. */
  private String title(Page p) throws IOException {
    Path warc = warcs.get(p.filename);
    if (warc == null || p.offset < 0) {
      return null;
    }
    try (FileChannel channel = FileChannel.open(warc, StandardOpenOption.READ)) {
      channel.position(p.offset);
      WarcReader reader = new WarcReader(channel);
      WarcRecord record = reader.next().orElse(null);
      if (!(record instanceof WarcResponse response) || !response.contentType().base().equals(MediaType.HTTP)) {
        return null;
      }
      HttpResponse http = response.http();
      String charset = http.contentType().parameters().get("charset");
      try (InputStream body = http.bodyDecoded().stream()) {
        return PageTitle.of(body.readNBytes(MAX_BODY), charset);
      }
    } catch (IOException | RuntimeException e) {
      return null; // a damaged record or an encoding jwarc cannot decode: the page is listed without a title
    }
  }
}
