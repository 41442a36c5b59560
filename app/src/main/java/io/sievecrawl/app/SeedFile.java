package io.sievecrawl.app;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.sievecrawl.crawler.Seeds;
import io.sievecrawl.crawler.fetch.PrivateAddresses;
import io.sievecrawl.crawler.url.InvalidUrlException;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import io.sievecrawl.sieve.Durable;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads seed URLs: one per line, blank lines and {@code #} comments ignored, a UTF-8 byte-order mark tolerated,
 * normalized into a file as they are read (a duplicate is queued once: the crawl's filter drops it). An invalid line
 * produces a warning naming its line number and is skipped, or, when strict, fails the whole read. A URL given where the file name goes ({@code crawl https://example.com/}) is the one seed.
 *
 * <p>A hostile file cannot hurt: a line longer than {@value #MAX_LINE_BYTES} bytes is skipped without being held in
 * memory, a line that is not UTF-8 is reported, control characters are escaped when a line is echoed, and after
 * {@value #MAX_WARNINGS} warnings the rest are counted, not printed.
 */
final class SeedFile {
  static final int MAX_LINE_BYTES = 64 * 1024;
  /** A "line" longer than this is no seed file at all ({@code /dev/zero}): the read stops. */
  static final long MAX_SKIPPED_LINE_BYTES = 16L << 20;
  static final int MAX_WARNINGS = 20;
  private static final java.util.regex.Pattern HOST_AND_PORT =
      java.util.regex.Pattern.compile("[A-Za-z0-9.-]+:[0-9]{1,5}([/?#].*)?");
  /** This many invalid lines in a row ({@code /dev/urandom}) are no seed file: the read stops. */
  static final int MAX_INVALID_RUN = 10_000;
  private static final int PROGRESS_LINES = 1_000_000;
  private static final Logger log = LoggerFactory.getLogger(SeedFile.class);
  private static final ThreadLocal<CharsetDecoder> UTF8 = ThreadLocal.withInitial(() -> StandardCharsets.UTF_8
      .newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
  private static final int MAX_ECHO = 200;

  private SeedFile() {}

  /**
   * What a read of seeds left: the file of normalized seeds, one a line, in the order read (a duplicate is left to
   * the crawl's filter), and how many there are.
   */
  record Read(Path file, long count, boolean anyPublic) {
    Seeds seeds() {
      return Seeds.inFile(file);
    }
  }

  /**
   * Reads the valid seeds of {@code source} ("-" for {@code stdin}, or a URL), normalized, into {@code spool},
   * streaming: a seed file of any length is read in bounded memory.
   *
   * @param warn receives one line per skipped seed ({@code seeds.txt:3: skipped 'ftp://x': unsupported scheme})
   * @throws UserError with {@link ExitCodes#SEEDS} if the file cannot be read, a line is invalid while strict,
   *     {@value #MAX_INVALID_RUN} lines in a row are invalid, or no valid seed remains
   */
  static Read read(String source, InputStream stdin, boolean strict, UrlNormalizer normalizer, Path spool,
      Consumer<String> warn) {
    if (looksLikeUrl(source) && !Files.exists(Path.of(source))) {
      try {
        Url seed = normalizer.get(source);
        Durable.replace(spool, seed + "\n");
        return new Read(spool, 1, isPublic(seed));
      } catch (InvalidUrlException e) {
        throw new UserError(ExitCodes.SEEDS, "invalid seed URL '" + escape(source) + "': " + e.getMessage());
      } catch (IOException e) {
        throw new UserError(ExitCodes.OUTPUT, "cannot write " + spool + ": " + Errors.reason(e));
      }
    }
    String name = source.equals("-") ? "<stdin>" : source;
    Warnings problems = new Warnings();
    Warnings notes = new Warnings(); // warnings that do not make a seed invalid, even with --strict-seeds
    long count = 0;
    boolean anyPublic = false;
    int invalidRun = 0;
    try (InputStream in = open(source, stdin);
        Writer out = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(spool), UTF_8), 1 << 16)) {
      LineReader lines = new LineReader(in);
      for (byte[] line = lines.next(); line != null; line = lines.next()) {
        long number = lines.number();
        if (number % PROGRESS_LINES == 0) {
          log.info("reading seeds: {} lines of {}", String.format(Locale.ROOT, "%,d", number), name);
        }
        String problem = null;
        String text = decode(line, number);
        if (lines.wasTooLong()) {
          problem = "skipped a line longer than " + String.format(Locale.ROOT, "%,d", MAX_LINE_BYTES) + " bytes";
        } else if (text == null) {
          problem = (strict ? "invalid" : "skipped") + " line: not UTF-8 text";
        } else if (text.isEmpty() || text.startsWith("#")) {
          continue;
        } else {
          try {
            Url seed = normalizer.get(text);
            out.write(seed.toString());
            out.write('\n');
            count++;
            anyPublic = anyPublic || isPublic(seed);
            if (hasUserInfo(text)) {
              notes.add(name + ":" + number + ": the user name and password in '" + escape(withoutUserInfo(text))
                  + "' are not sent: the crawler sends no credentials from URLs; give an Authorization header"
                  + " (--header) instead");
            }
          } catch (InvalidUrlException e) {
            problem = (strict ? "invalid" : "skipped") + " seed '" + escape(text) + "': " + e.getMessage()
                + schemeHint(text, e, normalizer);
          }
        }
        if (problem == null) {
          invalidRun = 0;
          continue;
        }
        problems.add(name + ":" + number + ": " + problem);
        if (++invalidRun == MAX_INVALID_RUN) {
          throw new UserError(ExitCodes.SEEDS, String.format(Locale.ROOT, "%s: %,d lines in a row up to line %,d hold"
              + " no URL: not a file of seed URLs (one absolute http or https URL per line; # starts a comment)", name,
              MAX_INVALID_RUN, number));
        }
      }
    } catch (NoSuchFileException e) {
      throw new UserError(ExitCodes.SEEDS, "seed file not found: " + escape(name) + (hostAndPort(name, normalizer)
          ? " (a URL needs its scheme: did you mean http://" + escape(name) + " ?)" : ""));
    } catch (IOException e) {
      throw new UserError(ExitCodes.SEEDS, "cannot read seed file " + escape(name) + ": " + Errors.reason(e));
    }
    if (strict && problems.count() > 0) {
      throw new UserError(ExitCodes.SEEDS, String.join("\n", problems.shown()));
    }
    problems.shown().forEach(warn);
    notes.shown().forEach(warn);
    if (count == 0) {
      throw new UserError(ExitCodes.SEEDS, "no valid seed URL in " + escape(name)
          + " (one absolute http or https URL per line; # starts a comment)");
    }
    return new Read(spool, count, anyPublic);
  }

  /**
   * A hint for a seed written without its scheme: {@code example.com/docs} was read as a relative reference (did
   * you mean https://...?), {@code localhost:8080/docs} as the scheme {@code localhost} (did you mean http://...?,
   * since a server on a port of its own is seldom https); empty when the text would be no URL either way.
   */
  static String schemeHint(String text, InvalidUrlException e, UrlNormalizer normalizer) {
    if (hostAndPort(text, normalizer)) {
      return " (did you mean http://" + escape(text) + " ?)";
    }
    boolean schemeMissing = e.getMessage().startsWith("not an absolute URL")
        && normalizer.parse("https://" + text) != null; // "not a url" is no host name either
    return schemeMissing ? " (did you mean https://" + escape(text) + " ?)" : "";
  }

  /** Whether {@code text} is {@code HOST:PORT}, maybe followed by a path, query or fragment, as a URL without scheme. */
  private static boolean hostAndPort(String text, UrlNormalizer normalizer) {
    return HOST_AND_PORT.matcher(text).matches() && normalizer.parse("http://" + text) != null;
  }

  /** A line as text without a byte-order mark or surrounding spaces, or {@code null} if it is not UTF-8. */
  private static String decode(byte[] line, long number) {
    String text;
    try {
      text = UTF8.get().decode(ByteBuffer.wrap(line)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
    if (number == 1 && text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    return text.strip();
  }

  private static boolean isPublic(Url seed) {
    return !PrivateAddresses.isLocalLiteral(seed.host());
  }

  /** The first {@value #MAX_WARNINGS} warnings, and a count of the rest: a file may hold millions of bad lines. */
  private static final class Warnings {
    private final List<String> first = new ArrayList<>();
    private long count;

    void add(String warning) {
      if (first.size() < MAX_WARNINGS) {
        first.add(warning);
      }
      count++;
    }

    long count() {
      return count;
    }

    List<String> shown() {
      if (count <= MAX_WARNINGS) {
        return first;
      }
      List<String> shown = new ArrayList<>(first);
      shown.add("... and " + String.format(Locale.ROOT, "%,d", count - MAX_WARNINGS) + " more lines like these");
      return shown;
    }
  }

  /** Whether an absolute URL has {@code user[:password]@} before its host. */
  static boolean hasUserInfo(String url) {
    int start = url.indexOf("//");
    if (start < 0) {
      return false;
    }
    int end = start + 2;
    while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) {
      end++;
    }
    return url.substring(start + 2, end).indexOf('@') >= 0;
  }

  /** The URL with its user information (which may be a password) left out, to show it. */
  private static String withoutUserInfo(String url) {
    int start = url.indexOf("//") + 2;
    int at = url.indexOf('@', start);
    return url.substring(0, start) + url.substring(at + 1);
  }

  private static boolean looksLikeUrl(String source) {
    String s = source.toLowerCase(java.util.Locale.ROOT);
    return s.startsWith("http://") || s.startsWith("https://");
  }

  /** {@code text} safe to echo on a terminal: control characters as {@code \\xNN}, cut at a sane length. */
  static String escape(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length() && out.length() < MAX_ECHO; i++) {
      char c = text.charAt(i);
      if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        out.append(String.format("\\x%02X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.length() >= MAX_ECHO ? out + "..." : out.toString();
  }

  private static InputStream open(String source, InputStream stdin) throws IOException {
    if (source.equals("-")) {
      return stdin;
    }
    Path path = Path.of(source);
    if (Files.isDirectory(path)) {
      throw new IOException("it is a directory");
    }
    return Files.newInputStream(path);
  }

  /** Lines as bytes, never holding more than {@value #MAX_LINE_BYTES} of one. */
  private static final class LineReader {
    private final InputStream in;
    private final byte[] buffer = new byte[64 * 1024];
    private int position;
    private int limit;
    private final byte[] line = new byte[MAX_LINE_BYTES];
    private long number;
    private boolean tooLong;
    private boolean ended;

    LineReader(InputStream in) {
      this.in = in;
    }

    /** The next line without its end, or {@code null} at the end of the input. */
    byte[] next() throws IOException {
      if (ended) {
        return null;
      }
      int length = 0;
      long skipped = 0;
      tooLong = false;
      while (true) {
        if (position == limit && !fill()) {
          ended = true;
          if (length == 0 && !tooLong) {
            return null;
          }
          break;
        }
        byte b = buffer[position++];
        if (b == '\n') {
          break;
        }
        if (length < MAX_LINE_BYTES) {
          line[length++] = b;
        } else {
          tooLong = true;
          if (++skipped > MAX_SKIPPED_LINE_BYTES) {
            throw new IOException("line " + (number + 1) + " runs on for more than " + (MAX_SKIPPED_LINE_BYTES >> 20)
                + " MB without ending: not a file of URLs");
          }
        }
      }
      number++;
      if (length > 0 && line[length - 1] == '\r') {
        length--;
      }
      return Arrays.copyOf(line, length);
    }

    private boolean fill() throws IOException {
      int read = in.read(buffer);
      if (read <= 0) {
        return false;
      }
      position = 0;
      limit = read;
      return true;
    }

    long number() {
      return number;
    }

    boolean wasTooLong() {
      return tooLong;
    }
  }
}
