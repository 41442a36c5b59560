package io.sievecrawl.crawler.warc;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Packages a WARC directory as WACZ 1.1.1, the format ReplayWeb.page and pywb open directly: {@code archive/} (the
 * WARC files, stored as they are, not compressed again), {@code indexes/index.cdxj} ({@link WarcIndex}),
 * {@code pages/pages.jsonl} (every page answered 200 with HTML, with its title: {@link PageList}),
 * {@code datapackage.json} (each file's SHA-256 and size) and {@code datapackage-digest.json} (the SHA-256 of
 * {@code datapackage.json}). The WARC files of several directories (a crawl's generations) go into one package.
 *
 * <p>Streams: a WARC file is read twice (its CRC-32 and digest first, as a stored zip entry needs its CRC before
 * its bytes, and its records checked against its index on the way; then its bytes), and a page's record a third
 * time for its title, so a 50 GB crawl needs no memory nor temporary space beyond the index and the pages list. The
 * package is written beside its final name and renamed into place.
 */
public final class WaczPackage {
  static final String VERSION = "1.1.1";
  private static final ObjectMapper JSON = new ObjectMapper();

  private WaczPackage() {}

  /** What a package holds, for a report. */
  public record Summary(int warcFiles, long warcBytes, long indexLines, long pages, long packageBytes) {}

  /**
   * What a package says of itself in datapackage.json: its {@code title}, and the page replay tools open first,
   * {@code mainPageURL} (a crawl's first seed). Null fields take defaults: the WARC folder's name, and the page
   * captured first.
   */
  public record Description(String title, String mainPageUrl) {
    public static final Description DEFAULT = new Description(null, null);
  }

  /**
   * Writes the WACZ of the closed WARC files of {@code warcDir} to {@code out}, building the directory's index first.
   *
   * @param software the {@code software} field, e.g. {@code sievecrawl 1.0}
   * @param clock the wall clock: the package's {@code created} field
   * @throws WarcDamagedException if a WARC file is damaged (a record cut off or changed) or its index points where
   *     no record is; nothing is written
   * @throws IOException if a file cannot be read or the package written; a partial package is removed
   */
  public static Summary write(Path warcDir, Path out, String software, Clock clock) throws IOException {
    return write(List.of(warcDir), out, software, clock, Description.DEFAULT);
  }

  /** As {@link #write(Path, Path, String, Clock)}, saying of itself what {@code description} says. */
  public static Summary write(Path warcDir, Path out, String software, Clock clock, Description description)
      throws IOException {
    return write(List.of(warcDir), out, software, clock, description);
  }

  /**
   * Writes one WACZ of the closed WARC files of every directory of {@code warcDirs} (the generations of a crawl
   * that wrote to several), building each directory's index first and merging them.
   *
   * @throws IOException if a file cannot be read, two directories hold WARC files of the same name, or the package
   *     cannot be written; a partial package is removed
   */
  public static Summary write(List<Path> warcDirs, Path out, String software, Clock clock, Description description)
      throws IOException {
    Map<String, Path> warcs = new TreeMap<>();
    List<Path> indexes = new ArrayList<>();
    for (Path dir : warcDirs) {
      indexes.add(WarcIndex.build(dir));
      for (Path warc : WarcIndex.closedWarcs(dir)) {
        Path other = warcs.put(warc.getFileName().toString(), warc);
        if (other != null) {
          throw new IOException("two WARC files are named " + warc.getFileName() + " (in " + other.getParent()
              + " and " + dir + "): a package holds them by name");
        }
      }
    }
    Path absoluteOut = out.toAbsolutePath();
    Path pages = Files.createTempFile(absoluteOut.getParent(), "pages", ".jsonl.tmp");
    Path merged = indexes.size() == 1 ? null : Files.createTempFile(absoluteOut.getParent(), "index", ".cdxj.tmp");
    Path temp = absoluteOut.resolveSibling(absoluteOut.getFileName() + ".tmp");
    try {
      Path index = indexes.size() == 1 ? indexes.get(0) : WarcIndex.merge(indexes, merged);
      PageList.Main main = new PageList.Main(description.mainPageUrl());
      long[] counts = PageList.write(index, warcs, pages, main);
      ArrayNode resources = JSON.createArrayNode();
      long warcBytes = 0;
      try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(temp))) {
        for (Path warc : warcs.values()) {
          warcBytes += Files.size(warc);
          resources.add(stored(zip, warc, "archive/" + warc.getFileName()));
        }
        resources.add(deflated(zip, index, "indexes/index.cdxj"));
        resources.add(deflated(zip, pages, "pages/pages.jsonl"));
        ObjectNode datapackage = JSON.createObjectNode();
        datapackage.put("profile", "data-package");
        datapackage.put("wacz_version", VERSION);
        datapackage.put("title", description.title() != null ? description.title()
            : warcDirs.get(0).toAbsolutePath().getFileName().toString());
        if (main.url() != null) {
          datapackage.put("mainPageURL", main.url());
          if (main.timestamp() != null) {
            datapackage.put("mainPageDate", main.timestamp());
          }
        }
        datapackage.put("software", software);
        datapackage.put("created", clock.instant().toString());
        datapackage.set("resources", resources);
        byte[] datapackageBytes = JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(datapackage);
        zip.putNextEntry(new ZipEntry("datapackage.json"));
        zip.write(datapackageBytes);
        zip.closeEntry();
        ObjectNode digest = JSON.createObjectNode();
        digest.put("path", "datapackage.json");
        digest.put("hash", "sha256:" + HexFormat.of().formatHex(sha256().digest(datapackageBytes)));
        zip.putNextEntry(new ZipEntry("datapackage-digest.json"));
        zip.write(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(digest));
        zip.closeEntry();
      }
      Files.move(temp, absoluteOut, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return new Summary(warcs.size(), warcBytes, counts[0], counts[1], Files.size(absoluteOut));
    } finally {
      Files.deleteIfExists(pages);
      Files.deleteIfExists(temp);
      if (merged != null) {
        Files.deleteIfExists(merged);
      }
    }
  }

  /**
   * A WARC file stored as it is (it is gzip already): its CRC-32, size and digest first, as its records and its index
   * lines are checked ({@link WarcFileCheck}), then its bytes.
   *
   * @throws WarcDamagedException if a record is damaged or the index points where no record is
   */
  private static ObjectNode stored(ZipOutputStream zip, Path file, String path) throws IOException {
    CRC32 crc = new CRC32();
    MessageDigest sha = sha256();
    WarcFileCheck check = new WarcFileCheck(file);
    byte[] buffer = new byte[1 << 16];
    long size = 0;
    try (InputStream in = Files.newInputStream(file)) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        crc.update(buffer, 0, n);
        sha.update(buffer, 0, n);
        check.update(buffer, 0, n);
        size += n;
      }
    }
    check.finish(WarcIndex.indexedLines(file));
    ZipEntry entry = new ZipEntry(path);
    entry.setMethod(ZipEntry.STORED);
    entry.setSize(size);
    entry.setCompressedSize(size);
    entry.setCrc(crc.getValue());
    zip.putNextEntry(entry);
    Files.copy(file, zip);
    zip.closeEntry();
    return resource(path, sha, size);
  }

  /** A file compressed in the package, its digest taken of its own bytes as they go in. */
  private static ObjectNode deflated(ZipOutputStream zip, Path file, String path) throws IOException {
    MessageDigest sha = sha256();
    zip.putNextEntry(new ZipEntry(path));
    long size = Files.copy(file, new DigestOutputStream(zip, sha)); // not closed: that would close the zip
    zip.closeEntry();
    return resource(path, sha, size);
  }

  private static ObjectNode resource(String path, MessageDigest sha, long size) {
    ObjectNode resource = JSON.createObjectNode();
    resource.put("name", path.substring(path.lastIndexOf('/') + 1));
    resource.put("path", path);
    resource.put("hash", "sha256:" + HexFormat.of().formatHex(sha.digest()));
    resource.put("bytes", size);
    return resource;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
