package io.sievecrawl.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.netpreserve.jwarc.HttpResponse;
import org.netpreserve.jwarc.MessageHeaders;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;

/**
 * Replays a WACZ as the replay tools resolve a capture, for tests: a URL's newest capture is looked up in the
 * package's index and a revisit is resolved to the capture it refers to, as wabac.js (ReplayWeb.page) and pywb do in
 * their source. What they serve: a status, header fields and the payload.
 *
 * <p>wabac.js ({@code ArchiveDB.lookupUrl}, {@code RemoteSourceArchiveDB.loadPayload}): the status is the index
 * line's ({@code Number(status) || 200}); a revisit's original is the first capture of WARC-Refers-To-Target-URI at or
 * after WARC-Refers-To-Date that is no revisit (else the newest before it); the header fields are the revisit's own
 * when its block has an HTTP head, else the original's. pywb ({@code ResolvingLoader}): status and header fields come
 * from the revisit's HTTP head unless it has none (an empty revisit), then from the original's; the original is a
 * capture of the referred URI with the revisit's payload digest that is no revisit, closest to the referred date.
 */
final class ReplayResolver implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter CDX_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");

  private final ZipFile wacz;
  private final Map<String, List<Line>> byUrl = new HashMap<>();

  /** What a replay tool serves. */
  record Replayed(int status, Map<String, String> headers, byte[] payload) {
    String contentType() {
      return headers.get("content-type");
    }

    String text() {
      return new String(payload, StandardCharsets.UTF_8);
    }
  }

  /** One index line. */
  private record Line(String url, Instant time, String mime, String status, String digest, String filename,
      long offset) {
    boolean isRevisit() {
      return "warc/revisit".equals(mime);
    }
  }

  ReplayResolver(Path wacz) throws IOException {
    this.wacz = new ZipFile(wacz.toFile());
    String index = new String(this.wacz.getInputStream(this.wacz.getEntry("indexes/index.cdxj")).readAllBytes(),
        StandardCharsets.UTF_8);
    for (String text : index.lines().toList()) {
      String[] parts = text.split(" ", 3);
      JsonNode f = JSON.readTree(parts[2]);
      Line line = new Line(f.get("url").asText(), LocalDateTime.parse(parts[1], CDX_TIME).toInstant(ZoneOffset.UTC),
          f.path("mime").asText(""), f.path("status").asText(""), f.path("digest").asText(""),
          f.get("filename").asText(), f.get("offset").asLong());
      byUrl.computeIfAbsent(line.url(), u -> new ArrayList<>()).add(line);
    }
    byUrl.values().forEach(lines -> lines.sort(Comparator.comparing(Line::time)));
  }

  /** The URLs the index holds. */
  java.util.Set<String> urls() {
    return byUrl.keySet();
  }

  /** Whether the index holds a capture of {@code url} that is no revisit: the archive has its payload. */
  boolean hasCapture(String url) {
    return byUrl.getOrDefault(url, List.of()).stream().anyMatch(l -> !l.isRevisit());
  }

  /** The newest capture of {@code url} as ReplayWeb.page serves it; {@code null} if the index has none. */
  Replayed wabac(String url) throws IOException {
    List<Line> lines = byUrl.get(url);
    if (lines == null) {
      return null;
    }
    Line newest = lines.get(lines.size() - 1);
    int status = statusOf(newest.status());
    WarcCaptureRecord record = read(newest);
    if (!(record instanceof WarcRevisit revisit)) {
      return served(status, (WarcResponse) record, null);
    }
    Line original = wabacOriginal(revisit);
    if (original == null) {
      return null; // "Encountered revisit record but unable to locate original record"
    }
    WarcResponse response = (WarcResponse) read(original);
    return served(status, response, hasHttpHead(revisit) ? revisit.http().headers() : null);
  }

  /** The newest capture of {@code url} as pywb serves it; {@code null} if the index has none. */
  Replayed pywb(String url) throws IOException {
    List<Line> lines = byUrl.get(url);
    if (lines == null) {
      return null;
    }
    Line newest = lines.get(lines.size() - 1);
    WarcCaptureRecord record = read(newest);
    if (!(record instanceof WarcRevisit revisit)) {
      WarcResponse response = (WarcResponse) record;
      return served(response.http().status(), response, null);
    }
    String target = revisit.refersToTargetURI().map(Object::toString).orElse(null);
    if (target == null) {
      return null;
    }
    Instant date = Instant.parse(revisit.headers().first("WARC-Refers-To-Date").orElse(newest.time().toString()));
    String digest = newest.digest();
    Line original = byUrl.getOrDefault(target, List.of()).stream()
        .filter(l -> !l.isRevisit() && (digest.isEmpty() || digest.equals(l.digest())))
        .min(Comparator.comparing(l -> Math.abs(l.time().getEpochSecond() - date.getEpochSecond()))).orElse(null);
    if (original == null) {
      return null;
    }
    WarcResponse response = (WarcResponse) read(original);
    if (hasHttpHead(revisit) && !revisit.http().headers().map().isEmpty()) {
      return served(revisit.http().status(), response, revisit.http().headers());
    }
    return served(response.http().status(), response, null);
  }

  private Line wabacOriginal(WarcRevisit revisit) throws IOException {
    String target = revisit.refersToTargetURI().map(Object::toString).orElse(null);
    String date = revisit.headers().first("WARC-Refers-To-Date").orElse(null);
    if (target == null || date == null) {
      return null;
    }
    Instant at = Instant.parse(date).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    List<Line> lines = byUrl.getOrDefault(target, List.of()).stream().filter(l -> !l.isRevisit()).toList();
    for (Line l : lines) {
      if (!l.time().isBefore(at)) {
        return l;
      }
    }
    return lines.isEmpty() ? null : lines.get(lines.size() - 1);
  }

  private static boolean hasHttpHead(WarcRevisit revisit) throws IOException {
    return revisit.body().size() > 0; // warcio.js parses no HTTP head of a revisit with Content-Length 0
  }

  private static int statusOf(String field) {
    try {
      int status = Integer.parseInt(field);
      return status == 0 ? 200 : status;
    } catch (NumberFormatException e) {
      return 200;
    }
  }

  private static Replayed served(int status, WarcResponse original, MessageHeaders head) throws IOException {
    HttpResponse http = original.http();
    Map<String, String> headers = new HashMap<>();
    for (Map.Entry<String, List<String>> e : (head != null ? head : http.headers()).map().entrySet()) {
      headers.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue().get(0));
    }
    byte[] payload;
    try (InputStream body = http.bodyDecoded().stream()) {
      payload = body.readAllBytes();
    }
    return new Replayed(status, headers, payload);
  }

  private WarcCaptureRecord read(Line line) throws IOException {
    ZipEntry entry = wacz.getEntry("archive/" + line.filename());
    if (entry == null) {
      throw new IOException("the package has no archive/" + line.filename());
    }
    InputStream in = wacz.getInputStream(entry); // stored: skipping is reading past, but correct
    in.skipNBytes(line.offset());
    WarcReader reader = new WarcReader(Channels.newChannel(in));
    WarcRecord record = reader.next().orElseThrow(() -> new IOException("no record at " + line));
    return (WarcCaptureRecord) record;
  }

  @Override
  public void close() throws IOException {
    wacz.close();
  }
}
