package io.sievecrawl.sieve.disk;

import io.sievecrawl.sieve.Durable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The frontier's checkpoint: which URL filter file holds the filter as of which log position, and the counters.
 * A small text file of {@code key=value} lines ending in its CRC-32C, replaced atomically.
 *
 * @param n the filter's expected insertions, fixed for the life of the frontier
 * @param p the filter's target false-positive rate, fixed likewise
 * @param seed the filter's hash seed
 * @param filterFile the filter file's name in the frontier directory, or empty before the first filter checkpoint
 * @param redoFrom records at or after this position must be added to that filter again on recovery
 * @param admitted tasks admitted before {@code redoFrom}
 * @param duplicatesDropped offers refused by the filter up to the checkpoint
 * @param confirmed whether an exact store of fingerprints confirms the filter (fixed for the life of the frontier)
 * @param seenRuns the store's run files as of {@code redoFrom}, newest first; records from there on are added to
 *     it again on recovery
 * @param rescued URLs the filter took for seen and the store admitted, up to the checkpoint
 */
record CheckpointFile(long n, double p, long seed, String filterFile, LogPosition redoFrom, long admitted,
    long duplicatesDropped, boolean confirmed, List<RunId> seenRuns, long rescued) {
  static final String NAME = "checkpoint";
  /** 3: each run of the exact store is named with its count and checksum. */
  static final int VERSION = 3;
  /** Runs named without count and checksum: read, and known again by name alone. */
  static final int NAMES_ONLY_VERSION = 2;
  /** Before the exact store: read as a frontier without one. */
  static final int FILTER_ONLY_VERSION = 1;

  /**
   * A run of the exact store as the checkpoint knows it: a run restored from an older backup under the same name is
   * a valid run, and only its count and checksum tell it from the one the checkpoint meant.
   *
   * @param count its fingerprints; -1 when a checkpoint of version 2 named it (and nothing more is known)
   * @param crc the CRC-32C of its fingerprints, as its header holds it
   */
  record RunId(String name, long count, int crc) {
    static RunId nameOnly(String name) {
      return new RunId(name, -1, 0);
    }

    boolean known() {
      return count >= 0;
    }

    /** {@code NAME:COUNT:CRC}, the CRC in 8 hex digits. */
    String field() {
      return String.format(Locale.ROOT, "%s:%d:%08x", name, count, crc);
    }

    static RunId parse(String field) {
      String[] parts = field.split(":");
      if (parts.length != 3) {
        throw new IllegalArgumentException("'" + field + "' is not NAME:COUNT:CRC");
      }
      return new RunId(parts[0], Long.parseLong(parts[1]), Integer.parseUnsignedInt(parts[2], 16));
    }
  }

  CheckpointFile {
    seenRuns = List.copyOf(seenRuns);
  }

  /** The checkpoint of a frontier just created. */
  static CheckpointFile initial(long n, double p, long seed, boolean confirmed) {
    return new CheckpointFile(n, p, seed, "", new LogPosition(1, LogFormat.HEADER_BYTES), 0, 0, confirmed, List.of(),
        0);
  }

  void write(Path dir) throws IOException {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("format", "sievecrawl-frontier-checkpoint");
    fields.put("version", Integer.toString(VERSION));
    fields.put("n", Long.toString(n));
    fields.put("p", Double.toString(p));
    fields.put("seed", Long.toString(seed));
    fields.put("filter", filterFile);
    fields.put("redo.segment", Long.toString(redoFrom.segment()));
    fields.put("redo.offset", Long.toString(redoFrom.offset()));
    fields.put("admitted", Long.toString(admitted));
    fields.put("dropped", Long.toString(duplicatesDropped));
    fields.put("confirmed", Boolean.toString(confirmed));
    fields.put("seen", String.join(",", seenRuns.stream().map(RunId::field).toList()));
    fields.put("rescued", Long.toString(rescued));
    StringBuilder text = new StringBuilder();
    fields.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    byte[] body = text.toString().getBytes(StandardCharsets.UTF_8);
    text.append("crc32c=").append(String.format(Locale.ROOT, "%08x", LogFormat.crcOf(body, 0, body.length)))
        .append('\n');
    Durable.replace(dir.resolve(NAME), text.toString());
  }

  /** The checkpoint in {@code dir}, or {@code null} if there is none. */
  static CheckpointFile read(Path dir) throws IOException {
    Path file = dir.resolve(NAME);
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return null;
    } catch (java.nio.charset.MalformedInputException e) {
      throw new FrontierCorruptException(file + ": not a frontier checkpoint (not UTF-8 text)");
    }
    int crcLine = text.lastIndexOf("crc32c=");
    if (crcLine < 0 || !text.endsWith("\n")) {
      throw new FrontierCorruptException(file + ": no checksum line; the file is damaged");
    }
    byte[] body = text.substring(0, crcLine).getBytes(StandardCharsets.UTF_8);
    String stored = text.substring(crcLine + 7).strip();
    String computed = String.format(Locale.ROOT, "%08x", LogFormat.crcOf(body, 0, body.length));
    if (!stored.equals(computed)) {
      throw new FrontierCorruptException(file + ": checksum mismatch (stored " + stored + ", computed " + computed
          + "); the file is damaged");
    }
    Map<String, String> fields = new LinkedHashMap<>();
    for (String line : text.substring(0, crcLine).split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        fields.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    if (!"sievecrawl-frontier-checkpoint".equals(fields.get("format"))) {
      throw new FrontierCorruptException(file + ": not a sievecrawl frontier checkpoint");
    }
    String version = fields.get("version");
    if (!List.of(FILTER_ONLY_VERSION, NAMES_ONLY_VERSION, VERSION).stream().map(String::valueOf).toList()
        .contains(version)) {
      throw new FrontierCorruptException(file + ": checkpoint format version " + version
          + ", but this build reads versions " + FILTER_ONLY_VERSION + " to " + VERSION);
    }
    try {
      String seen = fields.getOrDefault("seen", "");
      List<RunId> runs = seen.isEmpty() ? List.of() : java.util.Arrays.stream(seen.split(","))
          .map(Integer.toString(VERSION).equals(version) ? RunId::parse : RunId::nameOnly).toList();
      return new CheckpointFile(Long.parseLong(fields.get("n")), Double.parseDouble(fields.get("p")),
          Long.parseLong(fields.get("seed")), fields.getOrDefault("filter", ""),
          new LogPosition(Long.parseLong(fields.get("redo.segment")), Long.parseLong(fields.get("redo.offset"))),
          Long.parseLong(fields.get("admitted")), Long.parseLong(fields.get("dropped")),
          Boolean.parseBoolean(fields.getOrDefault("confirmed", "false")),
          runs, Long.parseLong(fields.getOrDefault("rescued", "0")));
    } catch (RuntimeException e) {
      throw new FrontierCorruptException(file + ": a field is missing or malformed (" + e.getMessage() + ")");
    }
  }
}
