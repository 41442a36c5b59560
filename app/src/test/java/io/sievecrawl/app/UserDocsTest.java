package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documentation a user reads holds together: the root README stays short enough to read, and every link
 * between the READMEs and the reference in {@code app/docs} leads to a file and a heading that exist, so that text
 * moved from one page to another is still found from the pages that pointed at it.
 */
class UserDocsTest {
  /** The root README's length, in words as {@code wc -w} counts them: the rest belongs in app/docs. */
  private static final int README_WORDS = 3_000;

  private static final Path TOP = Path.of("..");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$");

  @Test
  void theRootReadmeIsShort() throws IOException {
    int words = Files.readString(TOP.resolve("README.md")).strip().split("\\s+").length;
    assertTrue(words <= README_WORDS, "README.md has " + words + " words, more than " + README_WORDS
        + ": it says what sievecrawl is, how to start and where the rest is; put the reference in app/docs"
        + " (linked from the README's 'Where the rest is') and internals in the modules' READMEs");
  }

  @Test
  void everyLinkBetweenTheDocsLeadsToAFileAndAHeadingThatExist() throws IOException {
    List<String> broken = new ArrayList<>();
    Map<Path, Set<String>> anchors = new HashMap<>();
    for (Path page : pages()) {
      int number = 0;
      boolean inCode = false;
      for (String line : Files.readAllLines(page)) {
        number++;
        if (line.startsWith("```")) {
          inCode = !inCode;
        }
        if (inCode) {
          continue;
        }
        Matcher link = LINK.matcher(line.replaceAll("`[^`]*`", "``"));
        while (link.find()) {
          String target = link.group(1);
          if (target.matches("[a-z]+:.*")) {
            continue;
          }
          int hash = target.indexOf('#');
          String file = hash < 0 ? target : target.substring(0, hash);
          Path linked = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
          String where = TOP.relativize(page) + ":" + number + ": " + target;
          if (!Files.exists(linked)) {
            broken.add(where + " (no such file)");
          } else if (hash >= 0 && !anchors.computeIfAbsent(linked, UserDocsTest::anchors)
              .contains(target.substring(hash + 1))) {
            broken.add(where + " (no such heading in " + TOP.relativize(linked) + ")");
          }
        }
      }
    }
    if (!broken.isEmpty()) {
      fail("links that lead nowhere:\n  " + String.join("\n  ", broken));
    }
  }

  /** The root README, each module's README and the reference in app/docs. */
  private static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(TOP.resolve("README.md"));
    try (Stream<Path> modules = Files.list(TOP)) {
      modules.map(module -> module.resolve("README.md")).filter(Files::isRegularFile).sorted().forEach(pages::add);
    }
    try (Stream<Path> docs = Files.list(TOP.resolve("app/docs"))) {
      docs.filter(doc -> doc.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  /** The anchors GitHub gives the headings of a Markdown file (a repeated heading gets -1, -2, ...). */
  private static Set<String> anchors(Path page) {
    Set<String> anchors = new HashSet<>();
    if (!page.toString().endsWith(".md")) {
      return anchors;
    }
    try {
      boolean inCode = false;
      for (String line : Files.readAllLines(page)) {
        if (line.startsWith("```")) {
          inCode = !inCode;
        }
        Matcher heading = HEADING.matcher(line);
        if (!inCode && heading.matches()) {
          String anchor = Markdown.anchor(heading.group(1).strip());
          String unique = anchor;
          for (int i = 1; !anchors.add(unique); i++) {
            unique = anchor + "-" + i;
          }
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return anchors;
  }
}
