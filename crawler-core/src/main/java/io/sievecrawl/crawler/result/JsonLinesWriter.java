package io.sievecrawl.crawler.result;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes results as JSON Lines: one object per line, fields in a fixed order, {@code null} fields written as
 * {@code null} so every line has the same keys; {@code text} and {@code links}, which a crawl records only when asked,
 * only on the records that have them.
 *
 * <p>Each line is handed to the stream, and the stream flushed, before {@link #accept} returns: a line is never
 * half in a buffer when the process dies, and a crawl acknowledges a page only after its line is written. Give it
 * an unbuffered stream (one write per line) or one whose flush writes through.
 *
 * <pre>{"url":"https://example.com/","status":200,"contentType":"text/html","title":"Example","bytes":5120,
 * "truncated":false,"depth":0,
 * "referrer":null,"requisite":false,"fetchedAt":"2026-11-21T05:00:00.123Z","fetchMillis":42,"outlinks":17,"redirectTo":null,
 * "errorKind":null,"error":null,"attempts":1,"etag":"\"5f3a-1f40\"","lastModified":null,
 * "payloadDigest":"sha1:2Y5KZ...","revisit":null,"capturedAt":null,"capturedUrl":null}</pre>
 */
public final class JsonLinesWriter implements ResultSink {
  private final JsonGenerator json;
  private final boolean closeStream;

  /**
   * @param out where the lines go
   * @param closeStream whether {@link #close()} closes {@code out} (not for standard output)
   */
  public JsonLinesWriter(OutputStream out, boolean closeStream) throws IOException {
    this.json = new JsonFactory().createGenerator(out, JsonEncoding.UTF8);
    this.json.setRootValueSeparator(new SerializedString(""));
    this.json.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, closeStream);
    this.closeStream = closeStream;
  }

  @Override
  public synchronized void accept(CrawlResult r) throws IOException {
    json.writeStartObject();
    json.writeStringField("url", r.url());
    if (r.status() == null) {
      json.writeNullField("status");
    } else {
      json.writeNumberField("status", r.status());
    }
    json.writeStringField("contentType", r.contentType());
    json.writeStringField("title", r.title());
    json.writeNumberField("bytes", r.bytes());
    json.writeBooleanField("truncated", r.truncated());
    json.writeNumberField("depth", r.depth());
    json.writeStringField("referrer", r.referrer());
    json.writeBooleanField("requisite", r.requisite());
    json.writeStringField("fetchedAt", IsoInstant.format(r.fetchedAt()));
    json.writeNumberField("fetchMillis", r.fetchMillis());
    json.writeNumberField("outlinks", r.outlinks());
    json.writeStringField("redirectTo", r.redirectTo());
    json.writeStringField("errorKind", r.errorKind() == null ? null : r.errorKind().name());
    json.writeStringField("error", r.error());
    json.writeNumberField("attempts", r.attempts());
    CrawlResult.Capture capture = r.capture();
    json.writeStringField("etag", capture == null ? null : capture.etag());
    json.writeStringField("lastModified", capture == null ? null : capture.lastModified());
    json.writeStringField("payloadDigest", capture == null ? null : capture.payloadDigest());
    json.writeStringField("revisit", capture == null ? null : capture.revisit());
    json.writeStringField("capturedAt", capture == null || capture.capturedAt() == null ? null
        : IsoInstant.format(capture.capturedAt()));
    json.writeStringField("capturedUrl", capture == null ? null : capture.capturedUrl());
    if (r.text() != null) {
      json.writeStringField("text", r.text());
    }
    if (r.links() != null) {
      json.writeArrayFieldStart("links");
      for (CrawlResult.Link link : r.links()) {
        json.writeStartObject();
        json.writeStringField("url", link.url());
        json.writeStringField("notFollowed", link.notFollowed());
        json.writeEndObject();
      }
      json.writeEndArray();
    }
    json.writeEndObject();
    json.writeRaw('\n');
    json.flush();
  }

  /**
   * Runs {@code action} while no line is being written, for an exit that must not cut a line in half; gives up
   * waiting after {@code timeoutMillis} (a write blocked on a full pipe) and runs it anyway.
   */
  public void whenIdle(Runnable action, long timeoutMillis) {
    Thread waiter = Thread.ofPlatform().daemon().start(() -> {
      synchronized (this) {
        action.run();
      }
    });
    try {
      waiter.join(timeoutMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    action.run();
  }

  @Override
  public synchronized void flush() throws IOException {
    json.flush();
  }

  @Override
  public synchronized void close() throws IOException {
    json.flush();
    if (closeStream) {
      json.close();
    }
  }
}
