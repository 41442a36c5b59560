package io.sievecrawl.crawler.html;

import java.util.ArrayList;
import java.util.List;
import org.jsoup.nodes.DataNode;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;

/**
 * Collects a page's requisites, what it needs to be shown, as written, in document order, while {@link LinkFinder}
 * hears the page's elements open ({@link #visit}) and close ({@link #closed}): {@code img} ({@code src}, {@code srcset}), {@code picture source[srcset]}, {@code source[src]},
 * {@code video} ({@code src}, {@code poster}), {@code audio[src]}, {@code track[src]}, {@code script[src]},
 * {@code link[href]} with rel {@code stylesheet}, {@code icon} (and {@code apple-touch-icon}, {@code mask-icon}),
 * {@code preload}, {@code modulepreload} or {@code manifest}, {@code object[data]}, {@code embed[src]},
 * {@code input[type=image][src]}, an SVG {@code image} ({@code href}, {@code xlink:href}), the legacy
 * {@code background} of {@code body}, {@code table} and cells, and the {@code url()}s of {@code style} attributes and
 * {@code <style>} blocks ({@link CssUrls}). Not thread-safe: one per page.
 */
final class RequisiteFinder {
  private static final List<String> REQUISITE_RELS = List.of("stylesheet", "icon", "apple-touch-icon", "mask-icon",
      "preload", "modulepreload", "manifest");
  private static final String WHITESPACE = " \t\n\u000B\f\r";

  private final List<String> raw = new ArrayList<>();
  private final int max;
  private int overCap;

  /** @param max the most requisites taken from one page (the first in it); the rest are counted over the cap */
  RequisiteFinder(int max) {
    this.max = max;
  }

  /** The requisites found, as written, in document order (duplicates kept: the caller resolves them once each). */
  List<String> raw() {
    return raw;
  }

  /** Requisites past the cap, not taken. */
  int overCap() {
    return overCap;
  }

  /** Takes the requisites of {@code e} (named {@code name}) as it opens, an element in SVG if {@code inSvg}. */
  void visit(Element e, String name, boolean inSvg) {
    if (e.hasAttr("style")) {
      css(e.attr("style"));
    }
    if (inSvg) {
      if (name.equals("image")) {
        add(e.hasAttr("href") ? e.attr("href") : e.attr("xlink:href"));
      }
      return;
    }
    switch (name) {
      case "img" -> {
        add(e.attr("src"));
        srcset(e.attr("srcset"));
      }
      case "source" -> {
        add(e.attr("src"));
        srcset(e.attr("srcset"));
      }
      case "video" -> {
        add(e.attr("src"));
        add(e.attr("poster"));
      }
      case "audio", "track", "script", "embed" -> add(e.attr("src"));
      case "input" -> {
        if (e.attr("type").strip().equalsIgnoreCase("image")) {
          add(e.attr("src"));
        }
      }
      case "object" -> add(e.attr("data"));
      case "link" -> {
        if (hasRequisiteRel(e.attr("rel"))) {
          add(e.attr("href"));
        }
      }
      case "body", "table", "td", "th" -> add(e.attr("background"));
      default -> { }
    }
  }

  /**
   * Takes the requisites {@code e} (named {@code name}) holds once it is closed: the {@code url()}s of a
   * {@code <style>} block, in or out of SVG, whose text is complete only then.
   */
  void closed(Element e, String name) {
    if (name.equals("style")) {
      css(text(e));
    }
  }

  private void css(String css) {
    if (css.isEmpty()) {
      return;
    }
    List<String> found = new ArrayList<>();
    overCap += CssUrls.scan(css, found, Math.max(0, max - raw.size()));
    raw.addAll(found);
  }

  /** The text of a {@code <style>} element: raw text, as the tokenizer keeps a style element's content. */
  private static String text(Element style) {
    StringBuilder text = new StringBuilder();
    for (Node child : style.childNodes()) {
      if (child instanceof DataNode data) {
        text.append(data.getWholeData());
      } else if (child instanceof TextNode t) {
        text.append(t.getWholeText());
      }
    }
    return text.toString();
  }

  /**
   * The URLs of a {@code srcset}, as the HTML standard splits it: candidates a comma apart, each a URL (a run
   * without white space; commas that end it belong to the list) and descriptors up to the next comma outside
   * parentheses.
   */
  private void srcset(String srcset) {
    int n = srcset.length();
    int i = 0;
    while (i < n) {
      while (i < n && (WHITESPACE.indexOf(srcset.charAt(i)) >= 0 || srcset.charAt(i) == ',')) {
        i++;
      }
      int start = i;
      while (i < n && WHITESPACE.indexOf(srcset.charAt(i)) < 0) {
        i++;
      }
      int end = i;
      boolean descriptors = true;
      while (end > start && srcset.charAt(end - 1) == ',') {
        end--;
        descriptors = false;
      }
      if (end > start) {
        add(srcset.substring(start, end));
      }
      if (descriptors) {
        int depth = 0;
        while (i < n && (srcset.charAt(i) != ',' || depth > 0)) {
          char c = srcset.charAt(i);
          depth += c == '(' ? 1 : c == ')' && depth > 0 ? -1 : 0;
          i++;
        }
      }
    }
  }

  private void add(String reference) {
    if (reference.isEmpty()) {
      return;
    }
    if (raw.size() >= max) {
      overCap++;
      return;
    }
    raw.add(reference);
  }

  private static boolean hasRequisiteRel(String rel) {
    for (String wanted : REQUISITE_RELS) {
      if (LinkFinder.hasToken(rel, wanted, WHITESPACE)) {
        return true;
      }
    }
    return false;
  }
}
