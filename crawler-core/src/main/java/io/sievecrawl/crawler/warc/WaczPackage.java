package io.sievecrawl.crawler.warc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Packages a WARC directory as WACZ 1.1.1, the format ReplayWeb.page and pywb open directly: {@code archive/} (the
 * WARC files, stored as they are, not compressed again), {@code indexes/index.cdxj} ({@link WarcIndex}),
 * {@code pages/pages.jsonl} (every page answered 200 with HTML), {@code datapackage.json} (each file's SHA-256 and
 * size) and {@code datapackage-digest.json} (the SHA-256 of {@code datapackage.json}).
 *
 * <p>Streams: a WARC file is read twice (its CRC-32 and digest first, as a stored zip entry needs its CRC before
 * its bytes, and its records checked against its index on the way; then its bytes), so a 50 GB crawl needs no memory nor temporary space beyond the index and the pages
 * list. The package is written beside its final name and renamed into place.
 */
public final class WaczPackage {
  static final String VERSION = "1.1.1";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> PAGE_TYPES = Set.of("text/html", "application/xhtml+xml");
  private static final DateTimeFormatter CDX_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");

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

  /** The page of {@code pages.jsonl} a package opens with, and when it was captured. */
  private record MainPage(String url, String timestamp) {}

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
    return write(warcDir, out, software, clock, Description.DEFAULT);
  }

  /** As {@link #write(Path, Path, String, Clock)}, saying of itself what {@code description} says. */
  public static Summary write(Path warcDir, Path out, String software, Clock clock, Description description)
      throws IOException {
    Path index = WarcIndex.build(warcDir);
    List<Path> warcs = WarcIndex.closedWarcs(warcDir);
    Path absoluteOut = out.toAbsolutePath();
    Path pages = Files.createTempFile(absoluteOut.getParent(), "pages", ".jsonl.tmp");
    Path temp = absoluteOut.resolveSibling(absoluteOut.getFileName() + ".tmp");
    try {
      MainPage[] main = {description.mainPageUrl() == null ? null : new MainPage(description.mainPageUrl(), null)};
      long[] counts = writePages(index, pages, main);
      ArrayNode resources = JSON.createArrayNode();
      long warcBytes = 0;
      try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(temp))) {
        for (Path warc : warcs) {
          warcBytes += Files.size(warc);
          resources.add(stored(zip, warc, "archive/" + warc.getFileName()));
        }
        resources.add(deflated(zip, index, "indexes/index.cdxj"));
        resources.add(deflated(zip, pages, "pages/pages.jsonl"));
        ObjectNode datapackage = JSON.createObjectNode();
        datapackage.put("profile", "data-package");
        datapackage.put("wacz_version", VERSION);
        datapackage.put("title", description.title() != null ? description.title()
            : warcDir.toAbsolutePath().getFileName().toString());
        if (main[0] != null) {
          datapackage.put("mainPageURL", main[0].url());
          if (main[0].timestamp() != null) {
            datapackage.put("mainPageDate", main[0].timestamp());
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
    }
  }

  /**
   * pages.jsonl from the index: a header line, then a line per response answered 200 with HTML. Returns the index
   * lines read and the pages written; {@code main[0]} is given its capture time if it is among them, or, when
   * null, becomes the page captured first.
   */
  private static long[] writePages(Path index, Path pages, MainPage[] main) throws IOException {
    boolean pickFirst = main[0] == null;
    long lines = 0;
    long written = 0;
    try (BufferedReader in = Files.newBufferedReader(index, StandardCharsets.UTF_8);
        BufferedWriter out = Files.newBufferedWriter(pages, StandardCharsets.UTF_8)) {
      out.write("{\"format\": \"json-pages-1.0\", \"id\": \"pages\", \"title\": \"All Pages\"}\n");
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lines++;
        int json = line.indexOf('{');
        int space = line.indexOf(' ');
        if (json < 0 || space < 0) {
          continue;
        }
        JsonNode fields = JSON.readTree(line.substring(json));
        String mime = fields.path("mime").asText("");
        int semicolon = mime.indexOf(';');
        mime = (semicolon < 0 ? mime : mime.substring(0, semicolon)).trim();
        if (!"200".equals(fields.path("status").asText()) || !PAGE_TYPES.contains(mime)) {
          continue;
        }
        String timestamp = line.substring(space + 1, line.indexOf(' ', space + 1));
        ObjectNode page = JSON.createObjectNode();
        String url = fields.path("url").asText();
        String ts = LocalDateTime.parse(timestamp, CDX_TIME).toInstant(ZoneOffset.UTC).toString();
        page.put("url", url);
        page.put("ts", ts);
        if (pickFirst ? main[0] == null || ts.compareTo(main[0].timestamp()) < 0
            : url.equals(main[0].url()) && (main[0].timestamp() == null || ts.compareTo(main[0].timestamp()) < 0)) {
          main[0] = new MainPage(url, ts); // the first capture of the main page, or the first of all
        }
        out.write(JSON.writeValueAsString(page));
        out.write('\n');
        written++;
      }
    }
    return new long[] {lines, written};
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
