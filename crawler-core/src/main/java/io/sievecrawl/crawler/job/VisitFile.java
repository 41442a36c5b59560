package io.sievecrawl.crawler.job;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.LastVisit;
import io.sievecrawl.crawler.VisitLog;
import io.sievecrawl.crawler.fetch.Revalidation;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.IsoInstant;
import io.sievecrawl.sieve.FileWriteException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A generation's visits, one JSON line per URL visited or kept, appended as pages complete (before they are
 * acknowledged, so a kill loses none): {@code {"url":...,"fetchedAt":...,"status":200,"etag":...,
 * "lastModified":...,"payloadDigest":...,"capturedAt":...,"gone":0,"depth":2,"sitemap":false}} (and
 * {@code "requisite":true} for a page's requisite, {@code "capturedUrl"} as below). The next recrawl reads it newest
 * line first; a last line without its newline (a write cut short) is left out.
 *
 * <p>{@code capturedAt} is when the content was last captured whole (a revisit keeps the date of the capture it
 * repeats; an error keeps the last one): the date a WARC revisit record refers to; {@code capturedUrl}, written only
 * then, the URL of that capture when it is another's (an identical payload the archive holds once). {@code gone}
 * counts the visits in a row that answered 404 or 410.
 */
final class VisitFile implements VisitLog, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(VisitFile.class);
  private static final JsonFactory JSON = new JsonFactory();

  private final Path path;
  private final FileChannel channel;

  private VisitFile(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  /** Opens {@code path} to append to, cutting off a line torn by a kill. */
  static VisitFile open(Path path) throws IOException {
    if (Files.exists(path)) {
      cutTornLine(path);
    }
    return new VisitFile(path, FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.APPEND));
  }

  @Override
  public void visited(CrawlTask task, CrawlResult result) throws IOException {
    LastVisit last = task.last();
    Revalidation before = last == null ? null : last.revalidation();
    CrawlResult.Capture capture = result.capture();
    Instant capturedAt;
    String capturedUrl = null;
    if (capture != null && capture.revisit() != null) {
      capturedAt = capture.capturedAt();
      capturedUrl = capture.capturedUrl();
    } else if (capture != null && capture.payloadDigest() != null) {
      capturedAt = result.fetchedAt().truncatedTo(ChronoUnit.MILLIS); // as its WARC-Date
    } else {
      capturedAt = before == null ? null : before.capturedAt();
      capturedUrl = before == null ? null : before.capturedUrl();
    }
    boolean gone = result.status() != null && (result.status() == 404 || result.status() == 410);
    write(result.url(), result.fetchedAt(), result.status(), capture == null ? null : capture.etag(),
        capture == null ? null : capture.lastModified(),
        capture != null && capture.payloadDigest() != null ? capture.payloadDigest()
            : before == null ? null : before.payloadDigest(),
        capturedAt, capturedUrl, gone ? (last == null ? 1 : last.gone() + 1) : 0, task.depth(), task.sitemap(),
        task.requisite());
  }

  @Override
  public void kept(CrawlTask task) throws IOException {
    LastVisit last = task.last();
    Revalidation r = last.revalidation();
    write(task.key(), last.fetchedAt(), last.status(), r.etag(), r.lastModified(), r.payloadDigest(), r.capturedAt(),
        r.capturedUrl(), last.gone(), task.depth(), task.sitemap(), task.requisite());
  }

  private void write(String url, Instant fetchedAt, Integer status, String etag, String lastModified, String digest,
      Instant capturedAt, String capturedUrl, int gone, int depth, boolean sitemap, boolean requisite)
      throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    try (JsonGenerator json = JSON.createGenerator(line)) {
      json.writeStartObject();
      json.writeStringField("url", url);
      json.writeStringField("fetchedAt", IsoInstant.format(fetchedAt));
      if (status == null) {
        json.writeNullField("status");
      } else {
        json.writeNumberField("status", status);
      }
      json.writeStringField("etag", etag);
      json.writeStringField("lastModified", lastModified);
      json.writeStringField("payloadDigest", digest);
      json.writeStringField("capturedAt", capturedAt == null ? null : IsoInstant.format(capturedAt));
      if (capturedUrl != null) {
        json.writeStringField("capturedUrl", capturedUrl); // only then: files written before read the same
      }
      json.writeNumberField("gone", gone);
      json.writeNumberField("depth", depth);
      json.writeBooleanField("sitemap", sitemap);
      if (requisite) {
        json.writeBooleanField("requisite", true); // only then: files written before requisites read the same
      }
      json.writeEndObject();
    }
    line.write('\n');
    java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(line.toByteArray());
    synchronized (this) {
      try {
        while (bytes.hasRemaining()) {
          channel.write(bytes); // one append per line: a kill leaves whole lines and perhaps a torn last one
        }
      } catch (IOException e) {
        throw new FileWriteException(path, e); // the crawl directory may lie on another disk than the results
      }
    }
  }

  /** Forces the file to the device. */
  void sync() throws IOException {
    try {
      channel.force(false);
    } catch (IOException e) {
      throw new FileWriteException(path, e);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      channel.force(false);
    } finally {
      channel.close();
    }
  }

  /** One line of a visit file: a URL and what its last visit learned. */
  record Visit(String url, LastVisit last) {}

  /** Receives visits. */
  @FunctionalInterface
  interface VisitAction {
    void accept(Visit visit) throws IOException;
  }

  /**
   * Hands the visits of {@code path} to {@code action}, the last line first (the newest visit of a URL comes before
   * older ones); {@code cutoff}: a visit fetched after it is marked fresh.
   *
   * @throws CrawlJobException if a line is not a visit (naming the file and line)
   */
  static void forEachNewestFirst(Path path, Instant cutoff, VisitAction action) throws IOException {
    try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "r")) {
      long end = file.length();
      if (end > 0) {
        file.seek(end - 1);
        if (file.read() != '\n') {
          long lastNewline = end - 1;
          while (lastNewline >= 0) {
            file.seek(lastNewline);
            if (file.read() == '\n') {
              break;
            }
            lastNewline--;
          }
          log.info("visit file {}: left out a torn last line ({} bytes)", path, end - lastNewline - 1);
          end = lastNewline + 1; // a line cut short by a kill or a full disk: its page was not acknowledged
        }
      }
      byte[] chunk = new byte[1 << 16];
      ByteArrayOutputStream pending = new ByteArrayOutputStream(); // the start of a line met in an earlier chunk
      while (end > 0) {
        int n = (int) Math.min(chunk.length, end);
        file.seek(end - n);
        file.readFully(chunk, 0, n);
        int lineEnd = n;
        for (int i = lastNewline(chunk, n - 1); ; i = lastNewline(chunk, i - 1)) {
          if (i == -1 && end - n > 0) {
            // the line goes on in the chunk before: keep its tail for then
            ByteArrayOutputStream joined = new ByteArrayOutputStream();
            joined.write(chunk, 0, lineEnd);
            joined.writeBytes(pending.toByteArray());
            pending = joined;
            break;
          }
          byte[] tail = pending.toByteArray();
          pending.reset();
          int length = lineEnd - (i + 1);
          if (length + tail.length > 0) {
            byte[] line = new byte[length + tail.length];
            System.arraycopy(chunk, i + 1, line, 0, length);
            System.arraycopy(tail, 0, line, length, tail.length);
            action.accept(parse(path, line, cutoff));
          }
          if (i == -1) {
            break;
          }
          lineEnd = i;
        }
        end -= n;
      }
    }
  }

  /**
   * The index of the last newline in {@code bytes[0, from]}, or -1. A call per line, not a loop over the file's
   * bytes in one call, which without on-stack replacement (as the launcher runs the JVM) would stay interpreted.
   */
  private static int lastNewline(byte[] bytes, int from) {
    for (int i = from; i >= 0; i--) {
      if (bytes[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private static Visit parse(Path path, byte[] line, Instant cutoff) throws IOException {
    String url = null;
    Instant fetchedAt = null;
    Integer status = null;
    String etag = null;
    String lastModified = null;
    String digest = null;
    Instant capturedAt = null;
    String capturedUrl = null;
    int gone = 0;
    int depth = 0;
    boolean sitemap = false;
    boolean requisite = false;
    try (JsonParser json = JSON.createParser(line)) {
      if (json.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("not a JSON object");
      }
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String field = json.currentName();
        JsonToken value = json.nextToken();
        boolean none = value == JsonToken.VALUE_NULL;
        switch (field) {
          case "url" -> url = json.getText();
          case "fetchedAt" -> fetchedAt = Instant.parse(json.getText());
          case "status" -> status = none ? null : json.getIntValue();
          case "etag" -> etag = none ? null : json.getText();
          case "lastModified" -> lastModified = none ? null : json.getText();
          case "payloadDigest" -> digest = none ? null : json.getText();
          case "capturedAt" -> capturedAt = none ? null : Instant.parse(json.getText());
          case "capturedUrl" -> capturedUrl = none ? null : json.getText();
          case "gone" -> gone = json.getIntValue();
          case "depth" -> depth = json.getIntValue();
          case "sitemap" -> sitemap = json.getBooleanValue();
          case "requisite" -> requisite = json.getBooleanValue();
          default -> json.skipChildren();
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new CrawlJobException(path + ": a line is not a visit (" + e.getMessage() + "): "
          + new String(line, StandardCharsets.UTF_8));
    }
    if (url == null || fetchedAt == null) {
      throw new CrawlJobException(path + ": a line lacks its url or fetchedAt: "
          + new String(line, StandardCharsets.UTF_8));
    }
    return new Visit(url, new LastVisit(fetchedAt, status, new Revalidation(etag, lastModified, digest, capturedAt,
        capturedUrl),
        gone, fetchedAt.isAfter(cutoff), depth, sitemap, requisite));
  }

  private static void cutTornLine(Path path) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw")) {
      long length = raf.length();
      long keep = length;
      while (keep > 0) {
        raf.seek(keep - 1);
        if (raf.read() == '\n') {
          break;
        }
        keep--;
      }
      if (keep < length) {
        raf.setLength(keep);
        log.info("visit file {}: cut off a torn last line ({} bytes) left by an interrupted run", path,
            String.format(Locale.ROOT, "%,d", length - keep));
      }
    }
  }

  @Override
  public String toString() {
    return "VisitFile[" + path + "]";
  }
}
