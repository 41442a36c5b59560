package io.sievecrawl.app;

import io.sievecrawl.crawler.url.InvalidUrlException;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
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
 * fails the whole read.
 */
final class SeedFile {
  private SeedFile() {}

  /**
   * The valid seeds of {@code source} ("-" for {@code stdin}), normalized, in file order.
   *
   * @param warn receives one line per skipped seed ({@code seeds.txt:3: skipped 'ftp://x': unsupported scheme})
   * @throws UserError with {@link ExitCodes#SEEDS} if the file cannot be read, a line is invalid while strict, or
   *     no valid seed remains
   */
  static List<String> read(String source, InputStream stdin, boolean strict, UrlNormalizer normalizer,
      Consumer<String> warn) {
    String name = source.equals("-") ? "<stdin>" : source;
    Set<String> seeds = new LinkedHashSet<>();
    List<String> problems = new ArrayList<>();
    try (BufferedReader reader = new BufferedReader(open(source, stdin))) {
      String line;
      int number = 0;
      while ((line = reader.readLine()) != null) {
        number++;
        if (number == 1 && line.startsWith("\uFEFF")) {
          line = line.substring(1);
        }
        String text = line.strip();
        if (text.isEmpty() || text.startsWith("#")) {
          continue;
        }
        try {
          seeds.add(normalizer.normalize(text));
        } catch (InvalidUrlException e) {
          String hint = e.getMessage().startsWith("not an absolute URL") ? " (did you mean https://" + text + " ?)" : "";
          problems.add(name + ":" + number + ": " + (strict ? "invalid" : "skipped") + " seed '" + text + "': "
              + e.getMessage() + hint);
        }
      }
    } catch (NoSuchFileException e) {
      throw new UserError(ExitCodes.SEEDS, "seed file not found: " + name);
    } catch (IOException e) {
      throw new UserError(ExitCodes.SEEDS, "cannot read seed file " + name + ": " + e.getMessage());
    }
    if (strict && !problems.isEmpty()) {
      throw new UserError(ExitCodes.SEEDS, String.join("\n", problems));
    }
    problems.forEach(warn);
    if (seeds.isEmpty()) {
      throw new UserError(ExitCodes.SEEDS, "no valid seed URL in " + name
          + " (one absolute http or https URL per line; # starts a comment)");
    }
    return List.copyOf(seeds);
  }

  private static Reader open(String source, InputStream stdin) throws IOException {
    if (source.equals("-")) {
      return new InputStreamReader(stdin, StandardCharsets.UTF_8);
    }
    Path path = Path.of(source);
    if (Files.isDirectory(path)) {
      throw new IOException("it is a directory");
    }
    return new InputStreamReader(Files.newInputStream(path), StandardCharsets.UTF_8); // malformed bytes become U+FFFD
  }
}
