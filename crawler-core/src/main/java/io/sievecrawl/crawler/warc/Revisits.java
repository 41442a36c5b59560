package io.sievecrawl.crawler.warc;

import io.sievecrawl.crawler.fetch.Exchange;
import io.sievecrawl.crawler.fetch.Revalidation;
import java.net.URI;
import java.time.Instant;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcRevisit;

/**
 * Revisit records: an exchange that repeats a capture already archived is written as a {@code revisit} record
 * referring to that capture (WARC-Refers-To-Target-URI and -Date) instead of a {@code response} with its body again.
 * On a recrawl, a URL that answered 304 Not Modified ({@code server-not-modified}) or sent the same payload as its
 * last capture ({@code identical-payload-digest}).
 */
final class Revisits {
  /*
   * How the replay tools read a revisit, from their source (wabac.js, which ReplayWeb.page runs: ArchiveDB.getResource
   * and RemoteSourceArchiveDB.loadPayload; pywb: warcserver/resource/resolvingloader.py). Both find the capture a
   * revisit repeats by WARC-Refers-To-Target-URI and -Date (pywb also by the payload digest, among records that are no
   * revisits) and serve its payload under the revisit's own HTTP head when the revisit's block has one: wabac.js takes
   * the head's header fields and the status of the revisit's index line, pywb the head's status line and fields.
   * Only a revisit without a block gets the original capture's head in both (warcio.js parses no HTTP head of a
   * revisit with Content-Length 0, and pywb falls back on the original's "if headers record is actually empty").
   *
   * So a server-not-modified revisit whose block is the 304's head, as WARC writers have long written them, replays as
   * an empty 304 in both tools: the newest capture of every unchanged page is blank. Choice: a server-not-modified
   * revisit has no block. Its index line (jwarc's) then has no status, which wabac.js reads as 200, and both tools
   * serve the original capture whole, status, header fields and payload. The archive still says what the server did:
   * the record's WARC-Profile is server-not-modified (by definition a 304 to a conditional request), its request
   * record holds the If-None-Match and If-Modified-Since it sent, and its WARC-Payload-Digest is the payload it
   * confirmed. What is not kept is the 304's own header fields (its Date and a repeated ETag).
   *
   * An identical-payload-digest revisit keeps the response's head as its block: the server answered 200 this time,
   * with these fields, and the tools serve them over the original's payload, as they should.
   */
  private Revisits() {}

  /**
   * The revisit record for an exchange that revisited its URL and found it unchanged since its last full capture,
   * or {@code null} when it is a capture of its own: a 304 to the conditional request, or a 2xx with the payload of
   * that capture. A body cut short is a capture of its own.
   */
  static WarcRevisit of(Exchange exchange, RecordDigests digests) {
    Revalidation last = exchange.revalidation();
    if (last == null || last.capturedAt() == null || exchange.truncation() != null) {
      return null;
    }
    int status = statusOf(exchange.responseHead());
    if (status == 304) {
      return notModified(exchange, last);
    }
    String lastDigest = last.payloadDigest();
    boolean same = status / 100 == 2 && lastDigest != null && exchange.body().size() > 0
        && lastDigest.substring(lastDigest.indexOf(':') + 1).equalsIgnoreCase(digests.payload().base32());
    return same ? identicalPayload(exchange, digests, originalOf(exchange, last), last.capturedAt()) : null;
  }

  /**
   * The URL of the capture that holds the last payload: the URL's own, or another's when the archive kept its payload
   * as a revisit of an identical one (a revisit must refer to a record that holds a payload, or replay finds none).
   */
  private static String originalOf(Exchange exchange, Revalidation last) {
    return last.capturedUrl() != null ? last.capturedUrl() : exchange.url();
  }

  /** A 304 to a conditional request: no block, so that replay takes the original capture whole (see the notes). */
  static WarcRevisit notModified(Exchange exchange, Revalidation last) {
    WarcRevisit.Builder revisit = builder(exchange, WarcRevisit.SERVER_NOT_MODIFIED_1_1, originalOf(exchange, last),
        last.capturedAt()).blockDigest(RecordDigests.empty());
    WarcDigest payload = parse(last.payloadDigest());
    if (payload != null) {
      revisit.payloadDigest(payload);
    }
    return revisit.build();
  }

  /** The same payload as the capture of {@code originalUri} at {@code originalDate}, under this response's head. */
  static WarcRevisit identicalPayload(Exchange exchange, RecordDigests digests, String originalUri,
      Instant originalDate) {
    return builder(exchange, WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1, originalUri, originalDate)
        .body(MediaType.HTTP_RESPONSE, exchange.responseHead())
        .blockDigest(digests.head())
        .payloadDigest(digests.payload())
        .build();
  }

  private static WarcRevisit.Builder builder(Exchange exchange, URI profile, String originalUri,
      Instant originalDate) {
    WarcRevisit.Builder revisit = new WarcRevisit.Builder(exchange.url(), profile)
        .version(MessageVersion.WARC_1_1)
        .date(WarcRecords.warcDate(exchange.date()))
        .setHeader("WARC-Refers-To-Target-URI", originalUri)
        .setHeader("WARC-Refers-To-Date", WarcRecords.warcDate(originalDate).toString());
    if (exchange.ip() != null) {
      revisit.ipAddress(exchange.ip());
    }
    return revisit;
  }

  /** A digest as the crawl records it, {@code sha1:BASE32}; {@code null} if there is none or it is unreadable. */
  private static WarcDigest parse(String digest) {
    if (digest == null || digest.indexOf(':') <= 0) {
      return null;
    }
    int colon = digest.indexOf(':');
    return new WarcDigest(digest.substring(0, colon), digest.substring(colon + 1)); // as written: "sha1", BASE32
  }

  /** The status code of a response head, {@code HTTP/1.1 304 Not Modified}; -1 if there is none. */
  static int statusOf(byte[] head) {
    int space = 0;
    while (space < head.length && head[space] != ' ') {
      space++;
    }
    if (space + 4 > head.length) {
      return -1;
    }
    int code = 0;
    for (int i = space + 1; i <= space + 3; i++) {
      if (head[i] < '0' || head[i] > '9') {
        return -1;
      }
      code = code * 10 + head[i] - '0';
    }
    return code;
  }
}
