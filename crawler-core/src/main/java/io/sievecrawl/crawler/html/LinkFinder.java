package io.sievecrawl.crawler.html;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.select.NodeVisitor;

/**
 * Collects a page's raw links in document order ({@code null} for a nofollow link), whether it says nofollow, its
 * first {@code <base href>} and its title, as it is told of each element opening and closing: by the parse itself
 * ({@link HtmlElements#parse(String, String, boolean, NodeVisitor)}, no tree built) or by a walk over a parsed tree
 * ({@link org.jsoup.select.NodeTraversor}). Which links count is {@link LinkExtractor}'s documentation. Not
 * thread-safe: one per page.
 */
final class LinkFinder implements NodeVisitor {
  /*
   * The context of an element is that of the elements open around it, kept here as a stack of flags, one entry per
   * open element (what its children are in): inside an SVG image (and not in its foreignObject), inside a frameset,
   * inside a template. Every element this hears open it hears close, so the stack follows the parser's. The
   * document and text nodes are not elements of the page and are passed over (the parse tells of a text node's
   * insertion only, a walk of its head and tail).
   *
   * A title's text and a style block's are read when the element closes: during a parse they are not there yet when
   * it opens. Neither holds elements (their content is text to the tokenizer), so a style block's URLs still come
   * in document order among the requisites.
   */
  private static final List<String> FOLLOWED_LINK_RELS = List.of("next", "prev", "previous", "alternate", "canonical");
  static final String WHITESPACE = " \t\n\u000B\f\r";
  private static final String COMMA_OR_WHITESPACE = "," + WHITESPACE;
  private static final int IN_SVG = 1;
  private static final int IN_FRAMESET = 2;
  private static final int IN_TEMPLATE = 4;

  private final boolean honorNofollow;
  private final String robotName;
  private final RequisiteFinder requisites; // null when they are not wanted
  private final List<String> raw = new ArrayList<>();
  private boolean nofollow;
  private String base; // as written: resolved against the page's URL by the resolver
  private Element title;
  private int[] contexts = new int[32];
  private int depth;

  /**
   * @param robotName the crawler's name, lower case, matched against {@code <meta name="...">} robots tags
   * @param nofollow whether the page's links are not to be followed whatever it says (its X-Robots-Tag header)
   * @param requisites collects the page's requisites as well, or {@code null}
   */
  LinkFinder(boolean honorNofollow, String robotName, boolean nofollow, RequisiteFinder requisites) {
    this.honorNofollow = honorNofollow;
    this.robotName = robotName;
    this.nofollow = nofollow;
    this.requisites = requisites;
  }

  /** The links found, as written, in document order; {@code null} for a link marked nofollow. */
  List<String> raw() {
    return raw;
  }

  /** Whether the page's links are not to be followed. */
  boolean nofollow() {
    return nofollow;
  }

  /** The first {@code <base href>}, as written, or {@code null}. */
  String base() {
    return base;
  }

  /** The text of the first {@code <title>} outside SVG, white space collapsed, or {@code null}. */
  String title() {
    return title == null ? null : title.text();
  }

  /** The requisites' finder, or {@code null}. */
  RequisiteFinder requisites() {
    return requisites;
  }

  @Override
  public void head(Node node, int nodeDepth) {
    if (!(node instanceof Element e) || node instanceof Document) {
      return;
    }
    int context = depth == 0 ? 0 : contexts[depth - 1];
    String name = e.normalName();
    if (name.equals("template")) {
      context |= IN_TEMPLATE; // its content is a fragment of its own, not part of the document
    }
    if ((context & IN_TEMPLATE) == 0) {
      boolean inSvg = (context & IN_SVG) != 0;
      visit(e, name, inSvg, (context & IN_FRAMESET) != 0);
      if (requisites != null) {
        requisites.visit(e, name, inSvg);
      }
    }
    if (name.equals("svg")) {
      context |= IN_SVG;
    } else if (name.equals("foreignobject")) {
      context &= ~IN_SVG;
    } else if (name.equals("frameset")) {
      context |= IN_FRAMESET;
    }
    if (depth == contexts.length) {
      contexts = Arrays.copyOf(contexts, depth * 2);
    }
    contexts[depth++] = context;
  }

  @Override
  public void tail(Node node, int nodeDepth) {
    if (!(node instanceof Element e) || node instanceof Document) {
      return;
    }
    int context = contexts[--depth];
    if (requisites != null && (context & IN_TEMPLATE) == 0) {
      requisites.closed(e, e.normalName());
    }
  }

  private void visit(Element e, String name, boolean inSvg, boolean inFrameset) {
    String link;
    switch (name) {
      case "a" -> link = e.hasAttr("href") ? e.attr("href") : svgXlinkHref(e, inSvg);
      case "area" -> link = e.hasAttr("href") ? e.attr("href") : null;
      case "iframe" -> link = e.hasAttr("src") ? e.attr("src") : null;
      case "frame" -> link = inFrameset && e.hasAttr("src") ? e.attr("src") : null; // HTML drops one elsewhere
      case "base" -> {
        if (base == null && e.hasAttr("href")) {
          base = withoutNul(e.attr("href"));
        }
        return;
      }
      case "link" -> link = e.hasAttr("href") && followsRel(e.attr("rel")) ? e.attr("href") : null;
      case "title" -> {
        if (title == null && !inSvg) {
          title = e; // an SVG's <title> names a drawing, not the page
        }
        return;
      }
      case "meta" -> {
        if (!e.hasAttr("content")) {
          return;
        }
        if (isRobotsMeta(e)) {
          nofollow |= honorNofollow && saysNofollow(e.attr("content"));
          return;
        }
        link = refreshUrl(e);
      }
      default -> {
        return;
      }
    }
    if (link != null) {
      raw.add(honorNofollow && hasToken(e.attr("rel"), "nofollow", WHITESPACE) ? null : link);
    }
  }

  /**
   * The link with each U+0000 made U+FFFD, as the HTML standard decodes {@code &#0;} (jsoup decodes it to U+0000;
   * a raw NUL in an attribute it already replaces).
   */
  static String withoutNul(String link) {
    return link == null || link.indexOf('\0') < 0 ? link : link.replace('\0', '\uFFFD');
  }

  private static boolean followsRel(String rel) {
    for (String followed : FOLLOWED_LINK_RELS) {
      if (hasToken(rel, followed, WHITESPACE)) {
        return true;
      }
    }
    return false;
  }

  /** The URL of a {@code <meta http-equiv="refresh" content="5; url=...">}, or {@code null}. */
  private static String refreshUrl(Element meta) {
    if (!meta.attr("http-equiv").strip().equalsIgnoreCase("refresh")) { // other meta tags carry no link
      return null;
    }
    return MetaRefresh.url(meta.attr("content"));
  }

  /** The {@code xlink:href} of an SVG {@code <a>} (SVG 2: a plain {@code href} wins where both are given). */
  private static String svgXlinkHref(Element a, boolean inSvg) {
    return inSvg && a.hasAttr("xlink:href") ? a.attr("xlink:href") : null;
  }

  private boolean isRobotsMeta(Element meta) {
    String name = meta.attr("name");
    return lowerCaseEquals(name, 0, name.length(), "robots") || lowerCaseEquals(name, 0, name.length(), robotName);
  }

  /** Whether robots directives (a meta robots tag's content, an X-Robots-Tag header) say nofollow or none. */
  static boolean saysNofollow(String directives) {
    return directives != null && (hasToken(directives, "nofollow", COMMA_OR_WHITESPACE)
        || hasToken(directives, "none", COMMA_OR_WHITESPACE));
  }

  /** Whether {@code value}, split at any of {@code separators}, holds {@code token} once lower-cased. */
  static boolean hasToken(String value, String token, String separators) {
    int n = value.length();
    int start = 0;
    while (start < n) {
      while (start < n && separators.indexOf(value.charAt(start)) >= 0) {
        start++;
      }
      int end = start;
      while (end < n && separators.indexOf(value.charAt(end)) < 0) {
        end++;
      }
      if (end > start && lowerCaseEquals(value, start, end, token)) {
        return true;
      }
      start = end;
    }
    return false;
  }

  /**
   * Whether {@code value[from, to)} in lower case ({@link Locale#ROOT}) is {@code lowerCase}: compared in place
   * when it is ASCII, as it nearly always is.
   */
  private static boolean lowerCaseEquals(String value, int from, int to, String lowerCase) {
    for (int i = from; i < to; i++) {
      if (value.charAt(i) >= 0x80) {
        return value.substring(from, to).toLowerCase(Locale.ROOT).equals(lowerCase);
      }
    }
    if (to - from != lowerCase.length()) {
      return false;
    }
    for (int i = from; i < to; i++) {
      char c = value.charAt(i);
      if ((c >= 'A' && c <= 'Z' ? (char) (c + 32) : c) != lowerCase.charAt(i - from)) {
        return false;
      }
    }
    return true;
  }
}
