package io.sievecrawl.crawler.warc;

import io.sievecrawl.crawler.fetch.Exchange;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.netpreserve.jwarc.WarcDigest;

/**
 * The SHA-1 digests of one exchange's records, as WARC-Block-Digest and WARC-Payload-Digest: the response's block
 * (head and body) and payload (the body as sent), the request's block, and the response's head alone (the block of a
 * revisit record that keeps it). The archive computes them itself, from the bytes it writes, whatever the fetch
 * computed: a revisit of an identical payload is decided on {@link #payload}.
 */
record RecordDigests(WarcDigest block, WarcDigest payload, WarcDigest request, WarcDigest head) {
  private static final MessageDigest SHA1 = sha1();

  static RecordDigests of(Exchange exchange) throws IOException {
    MessageDigest block = copy();
    MessageDigest payload = copy();
    block.update(exchange.responseHead());
    try (ReadableByteChannel body = exchange.body().open()) {
      ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(16 * 1024, exchange.body().size() + 1));
      while (body.read(buffer) != -1) {
        buffer.flip();
        block.update(buffer.duplicate());
        payload.update(buffer);
        buffer.clear();
      }
    }
    MessageDigest request = copy();
    request.update(exchange.requestHead());
    MessageDigest head = copy();
    head.update(exchange.responseHead());
    return new RecordDigests(new WarcDigest(block), new WarcDigest(payload), new WarcDigest(request),
        new WarcDigest(head));
  }

  /** The SHA-1 of no bytes: the block digest of a revisit record without a block. */
  static WarcDigest empty() {
    return new WarcDigest(copy());
  }

  /** A fresh SHA-1 digest, cloned: cheaper than a provider lookup per record. */
  private static MessageDigest copy() {
    try {
      return (MessageDigest) SHA1.clone();
    } catch (CloneNotSupportedException e) {
      return sha1();
    }
  }

  private static MessageDigest sha1() {
    try {
      return MessageDigest.getInstance("SHA-1");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-1", e);
    }
  }
}
