package io.sievecrawl.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a sievecrawl config file into a {@link CrawlSettings.Builder}.
 *
 * <p>The format is INI-like: {@code [section]} headers and {@code name = value} lines, or fully qualified
 * {@code section.name = value} lines anywhere; {@code #} or {@code ;} starts a comment line, and a {@code #} after
 * white space starts a comment at the end of a value line; blank lines are ignored; a value may be wrapped in double
 * quotes (then it may hold {@code #} and quotes). Every problem is reported, each with file and line: syntax
 * errors, unknown sections and keys (with the nearest known key), keys given twice (a repeatable key's value given
 * twice: a header named twice), and values that do not parse.
 */
public final class ConfigFile {
  private static final Pattern SECTION = Pattern.compile("\\[\\s*([A-Za-z0-9_.-]+)\\s*]");
  private static final Pattern ENTRY = Pattern.compile("([A-Za-z0-9_.-]+)\\s*=(.*)");

  private ConfigFile() {}

  /**
   * Parses {@code file} into {@code settings}, recording its problems there; {@link CrawlSettings.Builder#build()}
   * reports them with any others.
   *
   * @throws IOException if the file cannot be read (the message names the file)
   */
  public static void load(Path file, CrawlSettings.Builder settings) throws IOException {
    String text;
    try {
      byte[] bytes = Files.readAllBytes(file);
      text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(file.toString(), null, "config file not found");
    } catch (CharacterCodingException e) {
      settings.problem(new Problem(file.toString(), "the file", null, "is not UTF-8 text"));
      return;
    }
    parse(file.toString(), text, settings);
  }

  /** Parses config text; {@code name} is used in problem origins ({@code name:line}). */
  public static void parse(String name, String text, CrawlSettings.Builder settings) {
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    List<String> lines = text.lines().toList();
    String section = "";
    Map<Setting<?>, Integer> seenAt = new HashMap<>();
    Map<String, Integer> headerLines = new HashMap<>(); // fetch.header may repeat, each header name once
    for (int i = 0; i < lines.size(); i++) {
      String origin = name + ":" + (i + 1);
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
        continue;
      }
      Matcher sectionMatch = SECTION.matcher(line);
      if (sectionMatch.matches()) {
        String named = sectionMatch.group(1);
        section = named;
        if (Setting.all().stream().noneMatch(s -> s.section().equals(named))) {
          settings.problem(new Problem(origin, "[" + section + "]", null, "unknown section; known sections are "
              + knownSections()));
        }
        continue;
      }
      Matcher entry = ENTRY.matcher(line);
      if (!entry.matches()) {
        settings.problem(new Problem(origin, line, null, "expected 'name = value' or '[section]'"));
        continue;
      }
      String written = entry.group(1);
      String key = written.contains(".") || section.isEmpty() ? written : section + "." + written;
      String value;
      try {
        value = valueOf(entry.group(2));
      } catch (IllegalArgumentException e) {
        settings.problem(new Problem(origin, entry.group(1), entry.group(2).strip(), e.getMessage()));
        continue;
      }
      Optional<Setting<?>> setting = Setting.forKey(key);
      if (setting.isEmpty()) {
        String hint = Setting.closestKey(key).map(k -> "unknown key; did you mean " + k + "?")
            .orElse("unknown key; see the example config for every key");
        settings.problem(new Problem(origin, key, value, hint));
        continue;
      }
      Integer previous = setting.get().repeatable() ? headerLines.putIfAbsent(headerName(value), i + 1)
          : seenAt.putIfAbsent(setting.get(), i + 1);
      if (previous != null) {
        settings.problem(new Problem(origin, key, value, "already set on line " + previous));
        continue;
      }
      settings.parse(setting.get(), value, origin);
    }
  }

  /** The lower-cased name of the header a {@code fetch.header} value gives, or the value when it has none. */
  private static String headerName(String value) {
    int colon = value.indexOf(':');
    return (colon < 0 ? value : value.substring(0, colon)).strip().toLowerCase(java.util.Locale.ROOT);
  }

  private static String knownSections() {
    return String.join(", ", Setting.all().stream().map(Setting::section).distinct().toList());
  }

  /**
   * The value of an entry: a double-quoted string (which may hold {@code #} and quotes, though not a quote
   * followed by white space and {@code #}), or the text up to a {@code #} that follows white space (a trailing
   * comment), stripped.
   */
  static String valueOf(String raw) {
    String text = raw.strip();
    if (text.startsWith("\"")) {
      // The closing quote is the first one followed by nothing but a comment, so the value may hold quotes itself.
      int close = text.indexOf('"', 1);
      if (close < 0) {
        throw new IllegalArgumentException("a quoted value has no closing quote");
      }
      for (int next = close; next >= 0; next = text.indexOf('"', next + 1)) {
        String rest = text.substring(next + 1).strip();
        if (rest.isEmpty() || rest.startsWith("#")) {
          return text.substring(1, next);
        }
      }
      throw new IllegalArgumentException("unexpected text after the closing quote: '"
          + text.substring(close + 1).strip() + "'");
    }
    if (text.startsWith("#")) {
      return "";
    }
    for (int i = 1; i < text.length(); i++) {
      if (text.charAt(i) == '#' && Character.isWhitespace(text.charAt(i - 1))) {
        return text.substring(0, i).strip();
      }
    }
    return text;
  }
}
