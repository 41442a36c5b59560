package io.sievecrawl.crawler.warc;

import io.sievecrawl.crawler.fetch.Exchange;
import io.sievecrawl.crawler.fetch.StoredAs;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The first capture of each payload archived in this run, by payload digest, so that an identical payload is stored
 * once: a 2xx response whose payload (not empty, not cut short) was captured already, under any URL, is written as an
 * {@code identical-payload-digest} revisit of that capture, as Heritrix does. Bounded: at most {@code capacity}
 * digests (about 250 bytes each on the heap), the least recently met forgotten first; a forgotten payload is stored
 * whole again, which costs bytes, never correctness. Thread-safe.
 */
final class FirstCaptures {
  /*
   * Keys are the first 128 bits of the SHA-1 payload digest: a chance collision is about 2^-64 at four billion
   * payloads. Looking a digest up and adding it are two steps, not one: two fetches of one new payload at the same
   * moment both store it whole, which only forgoes a saving.
   */
  private record Key(long high, long low) {}

  private final int capacity;
  private final Map<Key, StoredAs> captures;
  private long revisits;
  private long bytesSaved;

  /** @param capacity the digests remembered; 0 stores every payload whole */
  FirstCaptures(int capacity) {
    this.capacity = capacity;
    this.captures = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Key, StoredAs> eldest) {
        return size() > FirstCaptures.this.capacity;
      }
    };
  }

  /**
   * The capture {@code exchange} repeats, to be written as a revisit of, or {@code null} when it is stored whole: its
   * payload is new, empty, cut short, or the response is no 2xx.
   */
  synchronized StoredAs repeated(Exchange exchange, RecordDigests digests) {
    if (!eligible(exchange)) {
      return null;
    }
    StoredAs first = captures.get(key(digests));
    if (first != null) {
      revisits++;
      bytesSaved += exchange.body().size();
    }
    return first;
  }

  /** {@code exchange} was stored whole: the first capture of its payload, if none is known. */
  synchronized void captured(Exchange exchange, RecordDigests digests, Instant date) {
    if (eligible(exchange)) {
      captures.putIfAbsent(key(digests), new StoredAs(exchange.url(), date));
    }
  }

  /** Responses stored as revisits of an identical payload, and the payload bytes not written again. */
  synchronized long[] saved() {
    return new long[] {revisits, bytesSaved};
  }

  private boolean eligible(Exchange exchange) {
    int status = Revisits.statusOf(exchange.responseHead());
    return capacity > 0 && status / 100 == 2 && exchange.truncation() == null && exchange.body().size() > 0;
  }

  private static Key key(RecordDigests digests) {
    ByteBuffer bytes = ByteBuffer.wrap(digests.payload().bytes());
    return new Key(bytes.getLong(), bytes.getLong());
  }
}
