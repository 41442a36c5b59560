package io.sievecrawl.crawler.html;

import io.sievecrawl.crawler.url.UrlNormalizer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * Where the crawler's parse ({@link HtmlElements}) and jsoup's HTML5 parse disagree on a page's links: runs
 * {@link LinkExtractor} both ways over every {@code .html} and {@code .htm} file under the given folders, and over
 * every document of html5lib's tree-construction tests ({@code .dat} files, each {@code #data} section a document).
 * A document differs in its links (the URLs or the page's nofollow; printed), in its count of links found only (the
 * HTML5 parse copies an {@code <a>} that a block element cuts in two, and counts the copy), or, for the html5lib
 * documents, which rarely hold a link, in its link-bearing elements only ({@code a}, {@code area}, {@code base},
 * {@code frame}, {@code iframe}, {@code link}, {@code meta} with their attributes, compared as sets), so that an
 * element one parse drops shows even without an {@code href}. The last two kinds are counted, with an example.
 *
 * <p>Run: {@code mvn -q -B -pl crawler-core -am -Pjmh-crawler process-test-classes
 * -Djmh.main=io.sievecrawl.crawler.html.LinkParseDifferences -Djmh.args="DIR..."}, for example over the javadoc
 * corpus and a checkout of github.com/html5lib/html5lib-tests (its {@code tree-construction} folder; the tests have
 * since moved to the web-platform-tests). Exit code 1 when a document differs in its links.
 */
public final class LinkParseDifferences {
  private static final String PAGE_URL = "http://example.com/dir/page.html";
  private static final List<String> LINK_ELEMENTS = List.of("a", "area", "base", "frame", "iframe", "link", "meta");

  private LinkParseDifferences() {}

  public static void main(String[] args) throws IOException {
    UrlNormalizer normalizer = new UrlNormalizer(2048, true);
    LinkExtractor crawler = new LinkExtractor(normalizer, true, "sievecrawl");
    LinkExtractor html5 = new LinkExtractor(normalizer, true, "sievecrawl", Integer.MAX_VALUE,
        (html, pageUrl, keepText, listener) -> HtmlElementsTest.html5Walk(html, pageUrl, listener));
    int documents = 0;
    int differentLinks = 0;
    int differentCount = 0;
    int differentElements = 0;
    for (String arg : args) {
      List<Path> files;
      try (Stream<Path> walk = Files.walk(Path.of(arg), FileVisitOption.FOLLOW_LINKS)) {
        files = walk.filter(LinkParseDifferences::isInput).sorted().toList();
      }
      for (Path file : files) {
        // bytes as they are: LinkExtractor decides the charset itself
        List<byte[]> docs = file.toString().endsWith(".dat") ? datDocuments(file) : List.of(Files.readAllBytes(file));
        for (int i = 0; i < docs.size(); i++) {
          documents++;
          byte[] body = docs.get(i);
          String where = docs.size() > 1 ? file + " #" + (i + 1) : file.toString();
          PageLinks expected = html5.extract(body, null, io.sievecrawl.crawler.url.Url.ofCanonical(PAGE_URL), null);
          PageLinks actual = crawler.extract(body, null, io.sievecrawl.crawler.url.Url.ofCanonical(PAGE_URL), null);
          String input = docs.size() > 1 ? new String(body, StandardCharsets.UTF_8).replace("\n", "\\n") : "";
          if (!expected.links().equals(actual.links()) || expected.nofollow() != actual.nofollow()) {
            differentLinks++;
            System.out.printf(Locale.ROOT, "LINKS DIFFER %s%n  html5:   %s nofollow=%s%n  crawler: %s nofollow=%s%n"
                + "  input:   %s%n", where, expected.links(), expected.nofollow(), actual.links(), actual.nofollow(),
                input);
          } else if (expected.found() != actual.found()) {
            if (differentCount++ == 0) {
              System.out.printf(Locale.ROOT, "for example, links found %d (html5) and %d (crawler) in %s %s%n",
                  expected.found(), actual.found(), where, input);
            }
          } else if (docs.size() > 1) {
            String text = new String(body, StandardCharsets.UTF_8);
            List<String> html5Elements = linkElements(HtmlElementsTest.html5Parse(text, PAGE_URL));
            List<String> crawlerElements = linkElements(HtmlElements.parse(text, PAGE_URL));
            if (!html5Elements.equals(crawlerElements) && differentElements++ == 0) {
              System.out.printf(Locale.ROOT, "for example, elements %s (html5) and %s (crawler) in %s %s%n",
                  html5Elements, crawlerElements, where, input);
            }
          }
        }
      }
    }
    System.out.printf(Locale.ROOT, "%d documents: %d with different links, %d with the same links and a different"
        + " count found, %d with the same links and different link-bearing elements%n", documents, differentLinks,
        differentCount, differentElements);
    System.exit(differentLinks == 0 ? 0 : 1);
  }

  private static boolean isInput(Path path) {
    String name = path.getFileName().toString();
    return Files.isRegularFile(path) && (name.endsWith(".html") || name.endsWith(".htm") || name.endsWith(".dat"));
  }

  /** The link-bearing elements of {@code doc} with their attributes, sorted: where they sit may differ. */
  private static List<String> linkElements(Document doc) {
    List<String> elements = new ArrayList<>();
    for (Element e : doc.getAllElements()) {
      if (LINK_ELEMENTS.contains(e.normalName())) {
        elements.add("<" + e.normalName() + e.attributes().html() + ">");
      }
    }
    elements.sort(null);
    return elements;
  }

  /** The {@code #data} sections of an html5lib tree-construction test file, each up to its {@code #errors}. */
  private static List<byte[]> datDocuments(Path file) throws IOException {
    List<byte[]> docs = new ArrayList<>();
    StringBuilder doc = null;
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.equals("#data")) {
        doc = new StringBuilder();
      } else if (doc != null && line.startsWith("#")) {
        docs.add((doc.length() > 0 ? doc.substring(0, doc.length() - 1) : "").getBytes(StandardCharsets.UTF_8));
        doc = null;
      } else if (doc != null) {
        doc.append(line).append('\n');
      }
    }
    return docs;
  }
}
