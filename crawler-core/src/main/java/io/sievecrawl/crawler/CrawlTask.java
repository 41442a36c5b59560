package io.sievecrawl.crawler;

import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.sieve.QueueKeys;
import io.sievecrawl.sieve.TaskCodec;
import java.io.ByteArrayOutputStream;
import io.sievecrawl.crawler.fetch.Revalidation;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;

/**
 * A URL waiting to be fetched, with how it was found.
 *
 * @param url the normalized URL, parsed once: scope, politeness and robots.txt read its parts without scanning it again
 * @param depth link hops from a seed (0 for a seed; a redirect keeps the depth of the URL that redirected)
 * @param referrer the page that linked to or redirected to it, {@code null} for a seed
 * @param redirectHops redirects followed to reach it from the last linked URL
 * @param attempt fetches of it tried so far (retries after errors); not kept across restarts
 * @param sitemap whether it is a sitemap (listed by robots.txt or a sitemap index), read for the URLs it lists
 *     instead of as a page
 * @param last what the crawl's last visit of the URL learned, when a recrawl visits it again; {@code null} otherwise
 * @param requisite whether it is a requisite of the page (or style sheet) {@code referrer}: what the page needs to
 *     be shown (a style sheet, an image, a script); it waits in its origin's requisite lane, ahead of the pages, keeps
 *     the depth of the page that needs it, and is read for links only as in-scope HTML (a style sheet for its own
 *     requisites)
 */
public record CrawlTask(Url url, int depth, String referrer, int redirectHops, int attempt, boolean sitemap,
    LastVisit last, boolean requisite) {

  /** The lane a requisite waits in, ahead of the rest of its origin's queue ({@link QueueKeys}). */
  public static final String REQUISITE_LANE = "requisites";

  public CrawlTask {
    Objects.requireNonNull(url, "url");
  }

  /** A task that is no requisite. */
  public CrawlTask(Url url, int depth, String referrer, int redirectHops, int attempt, boolean sitemap,
      LastVisit last) {
    this(url, depth, referrer, redirectHops, attempt, sitemap, last, false);
  }

  /** A task of a first visit. */
  public CrawlTask(Url url, int depth, String referrer, int redirectHops, int attempt, boolean sitemap) {
    this(url, depth, referrer, redirectHops, attempt, sitemap, null);
  }

  /** A page (not a sitemap). */
  public CrawlTask(Url url, int depth, String referrer, int redirectHops, int attempt) {
    this(url, depth, referrer, redirectHops, attempt, false);
  }

  /** The encoding the disk and Redis frontiers keep tasks in. */
  public static final TaskCodec<CrawlTask> CODEC = new Codec();

  /** The canonical URL string: the task's key in the sieve and the frontier. */
  public String key() {
    return url.toString();
  }

  /** The task's origin, {@code scheme://host[:port]}: its politeness key, and its shard in a shared crawl. */
  public String origin() {
    return url.origin();
  }

  /** The frontier queue it waits in: its origin's, or for a requisite its origin's requisite lane. */
  public String queue() {
    return requisite ? QueueKeys.lane(url.origin(), REQUISITE_LANE) : url.origin();
  }

  public static CrawlTask seed(Url url) {
    return new CrawlTask(url, 0, null, 0, 0);
  }

  /**
   * A URL a recrawl visits again, queued as its seeds are, at the depth it was found at and carrying what its last
   * visit learned.
   */
  static CrawlTask revisit(Url url, LastVisit last) {
    return new CrawlTask(url, last.depth(), null, 0, 0, last.sitemap(), last, last.requisite());
  }

  /** A sitemap that robots.txt at {@code robotsTxt} lists: one hop from a seed, as a link of the site's root. */
  public static CrawlTask listedSitemap(Url sitemap, String robotsTxt) {
    return new CrawlTask(sitemap, 1, robotsTxt, 0, 0, true);
  }

  public CrawlTask link(Url target) {
    return new CrawlTask(target, depth + 1, url.toString(), 0, 0);
  }

  /** A requisite of this page (or style sheet): no hop of its own, it keeps this depth. */
  public CrawlTask requisiteOf(Url target) {
    return new CrawlTask(target, depth, url.toString(), 0, 0, false, null, true);
  }

  /**
   * A URL this sitemap lists, at the sitemap's own depth: a sitemap stands for its site's links, not a hop of its
   * own. {@code isSitemap} for the sitemaps a sitemap index lists.
   */
  public CrawlTask listed(Url target, boolean isSitemap) {
    return new CrawlTask(target, depth, url.toString(), 0, 0, isSitemap);
  }

  public CrawlTask redirect(Url target) {
    return new CrawlTask(target, depth, url.toString(), redirectHops + 1, 0, sitemap, null, requisite);
  }

  /** The same URL fetched again as a redirect hop: it redirected to itself after setting a cookie. */
  public CrawlTask againWithCookie() {
    return new CrawlTask(url, depth, referrer, redirectHops + 1, attempt + 1, sitemap, last, requisite);
  }

  /**
   * The URL that redirected here, its second fetch as the next redirect hop: this page set it a cookie, or checked
   * one, and sent the visitor back.
   */
  public CrawlTask backTo(Url redirectedHere) {
    return new CrawlTask(redirectedHere, depth, url.toString(), redirectHops + 1, 1, sitemap, null, requisite);
  }

  public CrawlTask retry() {
    return new CrawlTask(url, depth, referrer, redirectHops, attempt + 1, sitemap, last, requisite);
  }

  /**
   * Varints for depth, redirect hops and lengths; the URL in UTF-8; the referrer as the length of the prefix it
   * shares with the URL, plus one, then the rest of its bytes (a page mostly links within its own site, so this
   * saves much of it); 0 in place of that length means no referrer. Then, for a sitemap, a revisit or a requisite
   * only, a varint of flags (1: a sitemap; 2: a last visit follows; 4: a requisite; 8: the last visit's capture is
   * another URL's, which ends it), so that tasks written before sitemaps were followed read back as pages, and tasks
   * written before requisites read back unchanged. A last visit: fetchedAt in epoch milliseconds, status + 1 (0: none), ETag, Last-Modified and payload
   * digest each as length + 1 and UTF-8 bytes (0: none), capturedAt in epoch milliseconds + 1 (0: none), gone, fresh
   * (1) or due (0); the numbers as varints. A last visit's depth, sitemap and requisite flags are the task's own.
   */
  private static final class Codec implements TaskCodec<CrawlTask> {
    private static final int SITEMAP_FLAG = 1;
    private static final int LAST_VISIT_FLAG = 2;
    private static final int REQUISITE_FLAG = 4;
    private static final int CAPTURED_URL_FLAG = 8;

    @Override
    public byte[] encode(CrawlTask task) {
      byte[] url = task.key().getBytes(StandardCharsets.UTF_8);
      ByteArrayOutputStream out = new ByteArrayOutputStream(url.length + 24);
      writeVarint(out, task.depth);
      writeVarint(out, task.redirectHops);
      writeVarint(out, url.length);
      out.writeBytes(url);
      if (task.referrer == null) {
        writeVarint(out, 0);
      } else {
        byte[] referrer = task.referrer.getBytes(StandardCharsets.UTF_8);
        int shared = 0;
        while (shared < url.length && shared < referrer.length && url[shared] == referrer[shared]) {
          shared++;
        }
        writeVarint(out, shared + 1);
        writeVarint(out, referrer.length - shared);
        out.write(referrer, shared, referrer.length - shared);
      }
      boolean capturedUrl = task.last != null && task.last.revalidation().capturedUrl() != null;
      int flags = (task.sitemap ? SITEMAP_FLAG : 0) | (task.last != null ? LAST_VISIT_FLAG : 0)
          | (task.requisite ? REQUISITE_FLAG : 0) | (capturedUrl ? CAPTURED_URL_FLAG : 0);
      if (flags != 0) {
        writeVarint(out, flags);
      }
      if (task.last != null) {
        LastVisit last = task.last;
        writeLong(out, last.fetchedAt().toEpochMilli());
        writeVarint(out, last.status() == null ? 0 : last.status() + 1);
        writeText(out, last.revalidation().etag());
        writeText(out, last.revalidation().lastModified());
        writeText(out, last.revalidation().payloadDigest());
        Instant captured = last.revalidation().capturedAt();
        writeLong(out, captured == null ? 0 : captured.toEpochMilli() + 1);
        writeVarint(out, last.gone());
        writeVarint(out, last.fresh() ? 1 : 0);
        if (capturedUrl) {
          writeText(out, last.revalidation().capturedUrl());
        }
      }
      return out.toByteArray();
    }

    @Override
    public CrawlTask decode(byte[] bytes, int offset, int length) {
      int[] at = {offset};
      int end = offset + length;
      try {
        int depth = readVarint(bytes, at, end);
        int hops = readVarint(bytes, at, end);
        int urlLength = readVarint(bytes, at, end);
        check(urlLength <= end - at[0]);
        String url = new String(bytes, at[0], urlLength, StandardCharsets.UTF_8);
        int urlStart = at[0];
        at[0] += urlLength;
        int sharedPlusOne = readVarint(bytes, at, end);
        String referrer = null;
        if (sharedPlusOne > 0) {
          int shared = sharedPlusOne - 1;
          int rest = readVarint(bytes, at, end);
          check(shared <= urlLength && rest <= end - at[0]);
          byte[] joined = new byte[shared + rest];
          System.arraycopy(bytes, urlStart, joined, 0, shared);
          System.arraycopy(bytes, at[0], joined, shared, rest);
          referrer = new String(joined, StandardCharsets.UTF_8);
          at[0] += rest;
        }
        int flags = at[0] < end ? readVarint(bytes, at, end) : 0;
        check((flags & ~(SITEMAP_FLAG | LAST_VISIT_FLAG | REQUISITE_FLAG | CAPTURED_URL_FLAG)) == 0);
        check((flags & CAPTURED_URL_FLAG) == 0 || (flags & LAST_VISIT_FLAG) != 0);
        boolean requisite = (flags & REQUISITE_FLAG) != 0;
        LastVisit last = null;
        if ((flags & LAST_VISIT_FLAG) != 0) {
          Instant fetchedAt = Instant.ofEpochMilli(readLong(bytes, at, end));
          int status = readVarint(bytes, at, end);
          String etag = readText(bytes, at, end);
          String lastModified = readText(bytes, at, end);
          String digest = readText(bytes, at, end);
          long captured = readLong(bytes, at, end);
          int gone = readVarint(bytes, at, end);
          boolean fresh = readVarint(bytes, at, end) == 1;
          String capturedUrl = (flags & CAPTURED_URL_FLAG) != 0 ? readText(bytes, at, end) : null;
          last = new LastVisit(fetchedAt, status == 0 ? null : status - 1, new Revalidation(etag, lastModified, digest,
              captured == 0 ? null : Instant.ofEpochMilli(captured - 1), capturedUrl), gone, fresh, depth,
              (flags & SITEMAP_FLAG) != 0, requisite);
        }
        check(at[0] == end);
        return new CrawlTask(Url.ofCanonical(url), depth, referrer, hops, 0, (flags & SITEMAP_FLAG) != 0, last,
            requisite);
      } catch (ArrayIndexOutOfBoundsException e) {
        throw new IllegalArgumentException("not an encoded crawl task");
      }
    }

    private static void check(boolean ok) {
      if (!ok) {
        throw new IllegalArgumentException("not an encoded crawl task");
      }
    }

    private static void writeVarint(ByteArrayOutputStream out, int value) {
      while ((value & ~0x7F) != 0) {
        out.write((value & 0x7F) | 0x80);
        value >>>= 7;
      }
      out.write(value);
    }

    private static void writeLong(ByteArrayOutputStream out, long value) {
      while ((value & ~0x7FL) != 0) {
        out.write((int) (value & 0x7F) | 0x80);
        value >>>= 7;
      }
      out.write((int) value);
    }

    private static long readLong(byte[] bytes, int[] at, int end) {
      long value = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        check(at[0] < end);
        byte b = bytes[at[0]++];
        value |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          return value;
        }
      }
      throw new IllegalArgumentException("not an encoded crawl task");
    }

    private static void writeText(ByteArrayOutputStream out, String text) {
      if (text == null) {
        writeVarint(out, 0);
        return;
      }
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      writeVarint(out, bytes.length + 1);
      out.writeBytes(bytes);
    }

    private static String readText(byte[] bytes, int[] at, int end) {
      int lengthPlusOne = readVarint(bytes, at, end);
      if (lengthPlusOne == 0) {
        return null;
      }
      int length = lengthPlusOne - 1;
      check(length <= end - at[0]);
      String text = new String(bytes, at[0], length, StandardCharsets.UTF_8);
      at[0] += length;
      return text;
    }

    private static int readVarint(byte[] bytes, int[] at, int end) {
      int value = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        check(at[0] < end);
        byte b = bytes[at[0]++];
        value |= (b & 0x7F) << shift;
        if (b >= 0) {
          check(value >= 0);
          return value;
        }
      }
      throw new IllegalArgumentException("not an encoded crawl task");
    }
  }
}
