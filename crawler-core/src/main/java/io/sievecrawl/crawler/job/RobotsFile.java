package io.sievecrawl.crawler.job;

import io.sievecrawl.crawler.robots.RobotsStore;
import io.sievecrawl.sieve.Durable;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The robots.txt rules a crawl directory keeps ({@value #NAME}), so that a resumed crawl does not fetch every
 * origin's robots.txt again before they expire.
 *
 * <p>One line per robots.txt fetched, appended: {@code ORIGIN TAB EXPIRES TAB RULES TAB CRC}, EXPIRES in epoch
 * milliseconds, RULES base64 ({@link io.sievecrawl.crawler.robots.RobotsStore.Kept}), CRC the CRC-32 of what comes
 * before it, in hex. An origin's last line wins. Opening reads the file once and keeps, within {@code memory} bytes
 * of rules, the unexpired rules of the origins fetched last, for the crawl to take (each once: the crawl's own cache
 * holds them from then on); then it writes the file again with only those (replaced atomically), so it holds at
 * most that much after an open. A line cut short by a kill, or damaged, is skipped: the rules are a cache, and
 * robots.txt is fetched again when they are missing.
 */
public final class RobotsFile implements RobotsStore, Closeable {
  static final String NAME = CrawlFiles.ROBOTS;
  private static final Logger log = LoggerFactory.getLogger(RobotsFile.class);

  private final Path file;
  private final Map<String, Kept> kept; // guarded by this: rules read at the open, not taken yet
  private OutputStream out; // guarded by this; opened at the first save

  private RobotsFile(Path file, Map<String, Kept> kept) {
    this.file = file;
    this.kept = kept;
  }

  /**
   * Reads {@code dir}'s robots file (if any) and writes it again with only the rules kept.
   *
   * @param memory bytes of encoded rules kept at most, the most recently fetched origins' first
   */
  public static RobotsFile open(Path dir, Clock clock, long memory) throws IOException {
    Path file = dir.resolve(NAME);
    LinkedHashMap<String, Kept> kept = new LinkedHashMap<>();
    long bytes = 0;
    long skipped = 0;
    Instant now = clock.instant();
    if (Files.exists(file)) {
      try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) { // ASCII, any byte read
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          Map.Entry<String, Kept> entry = parse(line);
          if (entry == null) {
            skipped++;
            continue;
          }
          Kept old = kept.remove(entry.getKey());
          if (old != null) {
            bytes -= old.rules().length;
          }
          if (now.isBefore(entry.getValue().expires())) {
            kept.put(entry.getKey(), entry.getValue());
            bytes += entry.getValue().rules().length;
          }
          for (Iterator<Kept> eldest = kept.values().iterator(); bytes > memory && eldest.hasNext(); ) {
            bytes -= eldest.next().rules().length;
            eldest.remove();
          }
        }
      }
    }
    if (skipped > 0) {
      log.warn("{}: {} damaged or cut-off lines skipped; those origins' robots.txt is fetched again", file, skipped);
    }
    StringBuilder rewritten = new StringBuilder();
    kept.forEach((origin, rules) -> rewritten.append(line(origin, rules)));
    Durable.replace(file, rewritten.toString());
    return new RobotsFile(file, kept);
  }

  /** The rules kept for {@code origin} at the open, once; {@code null} after that or when none were kept. */
  @Override
  public synchronized Kept load(String origin) {
    return kept.remove(origin);
  }

  /** Appends {@code rules} for {@code origin}; a failure to write is logged, not thrown: robots.txt is only fetched again. */
  @Override
  public synchronized void save(String origin, Kept rules) {
    if (origin.indexOf('\t') >= 0 || origin.indexOf('\n') >= 0) {
      return; // never in a canonical origin
    }
    try {
      if (out == null) {
        out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      }
      out.write(line(origin, rules).getBytes(StandardCharsets.US_ASCII)); // one write: a kill keeps it whole or cut
    } catch (IOException e) {
      log.warn("cannot keep the robots.txt rules of {} in {}: {}", origin, file, e.getMessage());
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (out != null) {
      out.close();
      out = null;
    }
  }

  private static String line(String origin, Kept rules) {
    String body = origin + '\t' + rules.expires().toEpochMilli() + '\t'
        + Base64.getEncoder().encodeToString(rules.rules());
    return body + '\t' + Long.toHexString(crc(body)) + '\n';
  }

  /** The origin and rules of a line, or {@code null} for a line cut short or damaged. */
  private static Map.Entry<String, Kept> parse(String line) {
    int last = line.lastIndexOf('\t');
    if (last < 0) {
      return null;
    }
    String body = line.substring(0, last);
    String[] parts = body.split("\t", -1);
    try {
      if (parts.length != 3 || crc(body) != Long.parseLong(line.substring(last + 1), 16)) {
        return null;
      }
      return Map.entry(parts[0], new Kept(Instant.ofEpochMilli(Long.parseLong(parts[1])),
          Base64.getDecoder().decode(parts[2])));
    } catch (IllegalArgumentException e) { // NumberFormatException too
      return null;
    }
  }

  private static long crc(String text) {
    CRC32 crc = new CRC32();
    crc.update(text.getBytes(StandardCharsets.ISO_8859_1));
    return crc.getValue();
  }
}
