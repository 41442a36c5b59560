package io.sievecrawl.crawler.warc;

import io.sievecrawl.crawler.fetch.CaptureBuffer;
import io.sievecrawl.crawler.fetch.Exchange;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.netpreserve.jwarc.Warcinfo;

/**
 * The WARC/1.1 records the archive writes, built by jwarc ({@link Revisits} builds the revisits), and their bytes:
 * a record serialized and compressed as one gzip member ({@link GzipMemberWriter}) at the default level.
 */
final class WarcRecords {
  private static final byte[] RECORD_END = {'\r', '\n', '\r', '\n'};

  private WarcRecords() {}

  /** The response record of {@code exchange}: its response head and body as received, with their digests. */
  static WarcResponse response(Exchange exchange, RecordDigests digests) throws IOException {
    byte[] head = exchange.responseHead();
    CaptureBuffer body = exchange.body();
    ReadableByteChannel block = Channels.newChannel(new SequenceInputStream(new ByteArrayInputStream(head),
        Channels.newInputStream(body.open())));
    WarcResponse.Builder response = new WarcResponse.Builder(exchange.url())
        .version(MessageVersion.WARC_1_1)
        .date(warcDate(exchange.date()))
        .body(MediaType.HTTP_RESPONSE, block, head.length + body.size())
        .blockDigest(digests.block())
        .payloadDigest(digests.payload());
    if (exchange.ip() != null) {
      response.ipAddress(exchange.ip());
    }
    if (exchange.truncation() != null) {
      response.truncated(exchange.truncation() == Exchange.Truncation.DISCONNECT
          ? WarcTruncationReason.DISCONNECT : WarcTruncationReason.LENGTH);
    }
    return response.build();
  }

  /** The request record of {@code exchange}, concurrent to its response (or revisit) record. */
  static WarcRequest request(Exchange exchange, RecordDigests digests, URI responseId) {
    WarcRequest.Builder request = new WarcRequest.Builder(exchange.url())
        .version(MessageVersion.WARC_1_1)
        .date(warcDate(exchange.date()))
        .body(MediaType.HTTP_REQUEST, exchange.requestHead())
        .blockDigest(digests.request())
        .concurrentTo(responseId);
    if (exchange.ip() != null) {
      request.ipAddress(exchange.ip());
    }
    return request.build();
  }

  /** The warcinfo record that opens the file {@code fileName}, started at {@code date}. */
  static Warcinfo warcinfo(String fileName, Instant date, Map<String, List<String>> info) {
    return new Warcinfo.Builder().version(MessageVersion.WARC_1_1).date(date).filename(fileName).fields(info).build();
  }

  /**
   * A WARC-Date to the millisecond: WARC/1.1 allows any fraction of a second, but the clock's nanoseconds carry
   * nothing, and not every reader expects nine digits.
   */
  static Instant warcDate(Instant instant) {
    return instant.truncatedTo(ChronoUnit.MILLIS);
  }

  /** A record as WARC bytes: its header, its block, and the blank lines that end it. */
  static InputStream serialized(WarcRecord record) throws IOException {
    return new SequenceInputStream(Collections.enumeration(List.of(
        new ByteArrayInputStream(record.serializeHeader()), record.body().stream(),
        new ByteArrayInputStream(RECORD_END))));
  }

  /** A record as one gzip member, in memory. */
  static byte[] compress(WarcRecord record) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
    GzipMemberWriter.write(serialized(record), out);
    return out.toByteArray();
  }
}
