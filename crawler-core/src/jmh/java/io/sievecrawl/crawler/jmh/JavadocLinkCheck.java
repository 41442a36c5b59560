package io.sievecrawl.crawler.jmh;

import io.sievecrawl.crawler.html.LinkExtractor;
import io.sievecrawl.crawler.html.PageLinks;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.IntStream;
import java.util.zip.GZIPOutputStream;

/**
 * Checks that {@link LinkExtractor} finds the same links on the whole javadoc corpus ({@link JavadocCorpus}) as the
 * code that recorded {@code src/jmh/resources/javadoc-links.digest}: page by page (found count, nofollow, the links
 * in order) and as one set of distinct URLs. The corpus itself is fingerprinted too, so a different package version
 * is reported as such rather than as a change in what is found. A value {@code KEY.accepted} in the digest file is a
 * later, explained change that also passes.
 *
 * <p>Run: {@code mvn -q -B -pl crawler-core -am -Pjmh-crawler process-test-classes
 * -Djmh.main=io.sievecrawl.crawler.jmh.JavadocLinkCheck -Djmh.args="check src/jmh/resources/javadoc-links.digest"}.
 * {@code record FILE} writes the digest instead; {@code --list FILE.gz} after either also writes every page's line
 * (path, found, nofollow, links), to diff two versions' output when the digests differ. Exit code 1 on a difference.
 */
public final class JavadocLinkCheck {
  private JavadocLinkCheck() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 2 || !(args[0].equals("check") || args[0].equals("record"))) {
      System.err.println("usage: JavadocLinkCheck check|record DIGEST_FILE [--list FILE.gz]");
      System.exit(2);
    }
    Path digestFile = Path.of(args[1]);
    Path listFile = args.length >= 4 && args[2].equals("--list") ? Path.of(args[3]) : null;

    Path dir = JavadocCorpus.dir();
    List<String> paths = JavadocCorpus.htmlPaths(dir);
    LinkExtractor extractor = new LinkExtractor(new UrlNormalizer(2048, true), true, "sievecrawl");
    String[] lines = new String[paths.size()];
    long[] bytes = new long[paths.size()];
    byte[][] pageDigests = new byte[paths.size()][];
    IntStream.range(0, paths.size()).parallel().forEach(i -> {
      JavadocCorpus.Page page = JavadocCorpus.load(dir, paths.get(i));
      PageLinks links = extractor.extract(page.body(), null, page.link(), null);
      StringBuilder line = new StringBuilder(page.path()).append('\t').append(links.found()).append('\t')
          .append(links.nofollow());
      links.links().forEach(link -> line.append('\t').append(link));
      lines[i] = line.toString();
      bytes[i] = page.body().length;
      pageDigests[i] = sha256().digest(page.body());
    });

    MessageDigest corpus = sha256();
    MessageDigest pages = sha256();
    TreeSet<String> distinct = new TreeSet<>();
    long total = 0;
    long corpusBytes = 0;
    for (int i = 0; i < lines.length; i++) {
      corpus.update(paths.get(i).getBytes(StandardCharsets.UTF_8));
      corpus.update(pageDigests[i]);
      corpusBytes += bytes[i];
      pages.update((lines[i] + "\n").getBytes(StandardCharsets.UTF_8));
      String[] columns = lines[i].split("\t");
      total += columns.length - 3;
      distinct.addAll(List.of(columns).subList(3, columns.length));
    }
    MessageDigest urls = sha256();
    distinct.forEach(url -> urls.update((url + "\n").getBytes(StandardCharsets.UTF_8)));

    Map<String, String> found = new TreeMap<>();
    found.put("corpus.pages", String.valueOf(paths.size()));
    found.put("corpus.bytes", String.valueOf(corpusBytes));
    found.put("corpus.sha256", hex(corpus));
    found.put("links.per-page.sha256", hex(pages));
    found.put("links.total", String.valueOf(total));
    found.put("urls.distinct", String.valueOf(distinct.size()));
    found.put("urls.distinct.sha256", hex(urls));

    if (listFile != null) {
      try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(listFile));
          Writer w = new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8)) {
        for (String line : lines) {
          w.write(line);
          w.write('\n');
        }
      }
    }
    PrintStream out = System.out;
    found.forEach((k, v) -> out.println(k + "=" + v));
    if (args[0].equals("record")) {
      StringBuilder text = new StringBuilder("# Links LinkExtractor finds on Debian's openjdk-17-doc javadoc"
          + " (JavadocLinkCheck record)\n");
      found.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
      Files.writeString(digestFile, text);
      out.println("recorded in " + digestFile);
      return;
    }
    Properties recorded = new Properties();
    try (var in = Files.newBufferedReader(digestFile)) {
      recorded.load(in);
    }
    if (!recorded.getProperty("corpus.sha256", "").equals(found.get("corpus.sha256"))) {
      out.println("DIFFERENT CORPUS: recorded " + recorded.getProperty("corpus.pages") + " pages, "
          + recorded.getProperty("corpus.bytes") + " bytes; the digests cannot be compared");
      System.exit(1);
    }
    boolean same = true;
    for (String key : List.of("links.per-page.sha256", "links.total", "urls.distinct", "urls.distinct.sha256")) {
      String accepted = recorded.getProperty(key + ".accepted");
      if (found.get(key).equals(accepted)) {
        out.println("ACCEPTED: " + key + " differs from the recording as explained in " + digestFile);
      } else if (!found.get(key).equals(recorded.getProperty(key))) {
        out.println("DIFFERS: " + key + " recorded " + recorded.getProperty(key) + ", now " + found.get(key));
        same = false;
      }
    }
    out.println(same ? "SAME: every page yields the links recorded (or an accepted change)"
        : "links differ from the recording");
    System.exit(same ? 0 : 1);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  private static String hex(MessageDigest digest) {
    return HexFormat.of().formatHex(digest.digest());
  }
}
