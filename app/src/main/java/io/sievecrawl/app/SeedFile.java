package io.sievecrawl.app;

import io.sievecrawl.crawler.url.InvalidUrlException;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reads seed URLs: one per line, blank lines and {@code #} comments ignored, a UTF-8 byte-order mark tolerated,
 * duplicates kept once. An invalid line produces a warning naming its line number and is skipped, or, when strict,
 * fails the whole read. A URL given where the file name goes ({@code crawl https://example.com/}) is the one seed.
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
  private static final int MAX_ECHO = 200;

  private SeedFile() {}

  /**
   * The valid seeds of {@code source} ("-" for {@code stdin}, or a URL), normalized, in file order.
   *
   * @param warn receives one line per skipped seed ({@code seeds.txt:3: skipped 'ftp://x': unsupported scheme})
   * @throws UserError with {@link ExitCodes#SEEDS} if the file cannot be read, a line is invalid while strict, or
   *     no valid seed remains
   */
  static List<String> read(String source, InputStream stdin, boolean strict, UrlNormalizer normalizer,
      Consumer<String> warn) {
    if (looksLikeUrl(source) && !Files.exists(Path.of(source))) {
      try {
        return List.of(normalizer.normalize(source));
      } catch (InvalidUrlException e) {
        throw new UserError(ExitCodes.SEEDS, "invalid seed URL '" + escape(source) + "': " + e.getMessage());
      }
    }
    String name = source.equals("-") ? "<stdin>" : source;
    Set<String> seeds = new LinkedHashSet<>();
    List<String> problems = new ArrayList<>();
    List<String> notes = new ArrayList<>(); // warnings that do not make a seed invalid, even with --strict-seeds
    try (InputStream in = open(source, stdin)) {
      LineReader lines = new LineReader(in);
      for (byte[] line = lines.next(); line != null; line = lines.next()) {
        int number = lines.number();
        if (lines.wasTooLong()) {
          problems.add(name + ":" + number + ": skipped a line longer than " + MAX_LINE_BYTES + " bytes");
          continue;
        }
        String text;
        try {
          text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(line)).toString();
        } catch (CharacterCodingException e) {
          problems.add(name + ":" + number + ": " + (strict ? "invalid" : "skipped") + " line: not UTF-8 text");
          continue;
        }
        if (number == 1 && text.startsWith("\uFEFF")) {
          text = text.substring(1);
        }
        text = text.strip();
        if (text.isEmpty() || text.startsWith("#")) {
          continue;
        }
        try {
          seeds.add(normalizer.normalize(text));
          if (hasUserInfo(text)) {
            notes.add(name + ":" + number + ": the user name and password in '" + escape(withoutUserInfo(text))
                + "' are not sent: the crawler sends no credentials from URLs; give an Authorization header"
                + " (--header) instead");
          }
        } catch (InvalidUrlException e) {
          boolean schemeMissing = e.getMessage().startsWith("not an absolute URL")
              && normalizer.normalizeOrNull("https://" + text) != null; // "not a url" is no host name either
          String hint = schemeMissing ? " (did you mean https://" + escape(text) + " ?)" : "";
          problems.add(name + ":" + number + ": " + (strict ? "invalid" : "skipped") + " seed '" + escape(text)
              + "': " + e.getMessage() + hint);
        }
      }
    } catch (NoSuchFileException e) {
      throw new UserError(ExitCodes.SEEDS, "seed file not found: " + escape(name));
    } catch (IOException e) {
      throw new UserError(ExitCodes.SEEDS, "cannot read seed file " + escape(name) + ": " + Errors.reason(e));
    }
    if (strict && !problems.isEmpty()) {
      throw new UserError(ExitCodes.SEEDS, String.join("\n", limited(problems)));
    }
    limited(problems).forEach(warn);
    limited(notes).forEach(warn);
    if (seeds.isEmpty()) {
      throw new UserError(ExitCodes.SEEDS, "no valid seed URL in " + escape(name)
          + " (one absolute http or https URL per line; # starts a comment)");
    }
    return List.copyOf(seeds);
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

  private static List<String> limited(List<String> problems) {
    if (problems.size() <= MAX_WARNINGS) {
      return problems;
    }
    List<String> shown = new ArrayList<>(problems.subList(0, MAX_WARNINGS));
    shown.add("... and " + (problems.size() - MAX_WARNINGS) + " more lines like these");
    return shown;
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
    return new BufferedInputStream(Files.newInputStream(path), 64 * 1024);
  }

  /** Lines as bytes, never holding more than {@value #MAX_LINE_BYTES} of one. */
  private static final class LineReader {
    private final InputStream in;
    private int number;
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
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      tooLong = false;
      int b;
      long length = 0;
      while ((b = in.read()) != -1 && b != '\n') {
        if (line.size() < MAX_LINE_BYTES) {
          line.write(b);
        } else {
          tooLong = true;
          if (++length > MAX_SKIPPED_LINE_BYTES) {
            throw new IOException("line " + (number + 1) + " runs on for more than " + (MAX_SKIPPED_LINE_BYTES >> 20)
                + " MB without ending: not a file of URLs");
          }
        }
      }
      if (b == -1) {
        ended = true;
        if (line.size() == 0 && !tooLong) {
          return null;
        }
      }
      number++;
      byte[] bytes = line.toByteArray();
      int end = bytes.length;
      if (end > 0 && bytes[end - 1] == '\r') {
        end--;
      }
      return end == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, end);
    }

    int number() {
      return number;
    }

    boolean wasTooLong() {
      return tooLong;
    }
  }
}
