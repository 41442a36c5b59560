package io.sievecrawl.crawler.warc;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.cdx.CdxFormat;
import org.netpreserve.jwarc.cdx.CdxWriter;

/**
 * The CDXJ index of a WARC directory, as pywb and OutbackCDX read it: a line per response, resource and revisit
 * record, {@code SURT TIMESTAMP {"url", "mime", "status", "digest", "length", "offset", "filename"}}, sorted. Lines
 * are made by jwarc's {@link CdxWriter} (the same as {@code jwarc cdx --format CDXJ}), from the files as they are on
 * disk, never from memory.
 *
 * <p>Each closed WARC file gets its sorted lines in {@code .index/NAME.cdxj} once (a closed file never changes);
 * {@link #build} indexes the files that have none, drops the lines of files that are gone, and merges them all into
 * {@code index.cdxj}, streaming: memory holds one file's lines while it is indexed, and a line per file while they are
 * merged. Both files are replaced atomically, so a kill leaves the previous index or the new one.
 */
public final class WarcIndex {
  /** The merged index, in the WARC directory. */
  public static final String NAME = "index.cdxj";
  private static final String SIDECARS = ".index";
  private static final String WARC_SUFFIX = ".warc.gz";

  private WarcIndex() {}

  /**
   * Indexes a WARC directory's files as a writer closes them, on a background thread, and builds the merged index
   * when the writer is done. A file it could not index is indexed by {@link #build} at the end.
   */
  static final class Indexer {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Indexer.class);
    private final Path dir;
    private final java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors
        .newSingleThreadExecutor(r -> {
          Thread t = new Thread(r, "warc-index");
          t.setDaemon(true);
          return t;
        });

    Indexer(Path dir) {
      this.dir = dir;
    }

    /** {@code warc} was closed: index it in the background. */
    void closed(Path warc) {
      thread.execute(() -> {
        try {
          indexFile(warc);
        } catch (IOException | RuntimeException e) {
          log.warn("could not index {} ({}); the index is built from the files at the end of the run", warc,
              e.getMessage());
        }
      });
    }

    /** Waits for the files closed so far, then writes the directory's merged index. */
    void finish() throws IOException, InterruptedException {
      thread.shutdown();
      if (!thread.awaitTermination(1, java.util.concurrent.TimeUnit.HOURS)) {
        throw new IOException("indexing the WARC files of " + dir + " took over an hour");
      }
      build(dir);
    }

    void stop() {
      thread.shutdownNow();
    }
  }

  /** The sorted CDXJ lines of one closed WARC file. */
  static List<String> linesOf(Path warc) throws IOException {
    StringWriter text = new StringWriter();
    try (CdxWriter cdx = new CdxWriter(text); WarcReader reader = new WarcReader(warc)) {
      cdx.setFormat(CdxFormat.CDXJ);
      cdx.process(reader, warc.getFileName().toString());
    }
    List<String> lines = new ArrayList<>(text.toString().lines().filter(l -> !l.isEmpty())
        .map(WarcIndex::withWebrecorderKey).toList());
    lines.sort(Comparator.naturalOrder());
    return lines;
  }

  private static final java.util.regex.Pattern ESCAPED_STRAY_ESCAPE = java.util.regex.Pattern.compile("%25([0-9a-f]{2})");

  /**
   * A CDXJ line with its SURT key as Webrecorder's indexers (cdxj-indexer, pywb: the Python surt module) make it.
   * jwarc decodes a key's percent escapes as UTF-8 text and escapes the {@code %} of a byte that is no UTF-8
   * ({@code caf%FC} gives {@code caf%25fc}); the surt module decodes and escapes bytes ({@code caf%fc}). A windows-1252
   * page's query ({@code ?q=caf%E9}) is such a byte. Whatever jwarc left of the key is kept: after its full decoding
   * a {@code %25} before two hex digits can only be such a byte's.
   */
  static String withWebrecorderKey(String line) {
    int space = line.indexOf(' ');
    if (space < 0 || line.lastIndexOf("%25", space) < 0) {
      return line;
    }
    return ESCAPED_STRAY_ESCAPE.matcher(line.substring(0, space)).replaceAll("%$1") + line.substring(space);
  }

  /** Indexes one closed WARC file into its sidecar, unless it has one. */
  static void indexFile(Path warc) throws IOException {
    Path sidecar = sidecarOf(warc);
    if (Files.exists(sidecar)) {
      return;
    }
    List<String> lines;
    try {
      lines = linesOf(warc);
    } catch (IOException | RuntimeException e) {
      WarcFileCheck.scan(warc, List.of()); // a damaged file is refused naming the byte where the damage is
      throw e;
    }
    Files.createDirectories(sidecar.getParent());
    Path temp = sidecar.resolveSibling(sidecar.getFileName() + ".tmp");
    Files.write(temp, lines, StandardCharsets.UTF_8);
    Files.move(temp, sidecar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** The index lines made of the closed WARC file {@code warc}, as its sidecar holds them ({@link #build} first). */
  static List<String> indexedLines(Path warc) throws IOException {
    return Files.readAllLines(sidecarOf(warc), StandardCharsets.UTF_8);
  }

  static Path sidecarOf(Path warc) {
    return warc.resolveSibling(SIDECARS).resolve(warc.getFileName() + ".cdxj");
  }

  /**
   * Indexes every closed WARC file of {@code dir} that has no index lines yet and writes the merged, sorted
   * {@code index.cdxj}; returns its path. Files still being written ({@code .open}) are left out.
   */
  public static Path build(Path dir) throws IOException {
    List<Path> warcs = closedWarcs(dir);
    for (Path warc : warcs) {
      indexFile(warc);
    }
    Path sidecars = dir.resolve(SIDECARS);
    Set<String> wanted = warcs.stream().map(w -> w.getFileName() + ".cdxj").collect(Collectors.toSet());
    if (Files.isDirectory(sidecars)) {
      try (Stream<Path> files = Files.list(sidecars)) {
        for (Path stale : files.filter(f -> !wanted.contains(f.getFileName().toString())).toList()) {
          Files.delete(stale); // a WARC file removed, or a sidecar cut off by a kill
        }
      }
    }
    Path index = dir.resolve(NAME);
    Path temp = dir.resolve(NAME + ".tmp");
    merge(warcs.stream().map(WarcIndex::sidecarOf).toList(), temp);
    Files.move(temp, index, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return index;
  }

  /** The WARC files of {@code dir} that are closed, by name. */
  public static List<Path> closedWarcs(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(WARC_SUFFIX) && Files.isRegularFile(f))
          .sorted().toList();
    }
  }

  /** A k-way merge of sorted files into {@code out}; returns {@code out}. */
  static Path merge(List<Path> sorted, Path out) throws IOException {
    record Head(String line, BufferedReader from) {}
    List<BufferedReader> readers = new ArrayList<>();
    try (BufferedWriter writer = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      PriorityQueue<Head> heads = new PriorityQueue<>(Comparator.comparing(Head::line));
      for (Path file : sorted) {
        BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        readers.add(reader);
        String first = reader.readLine();
        if (first != null) {
          heads.add(new Head(first, reader));
        }
      }
      while (!heads.isEmpty()) {
        Head head = heads.poll();
        writer.write(head.line());
        writer.write('\n');
        String next = head.from().readLine();
        if (next != null) {
          heads.add(new Head(next, head.from()));
        }
      }
    } finally {
      for (BufferedReader reader : readers) {
        reader.close();
      }
    }
    return out;
  }
}
