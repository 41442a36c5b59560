package io.sievecrawl.crawler.html;

import org.jsoup.nodes.DataNode;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;

/**
 * The text of a page as a browser renders it, for a reader: what Chromium's {@code innerText} of the body gives, with
 * white space collapsed. Block elements (p, div, li, h1-h6, tr, section, ...) and {@code <br>} end a line; inline
 * elements join as rendered ({@code <b>W</b>ord} is {@code Word}); table cells of a row are one line, a space apart;
 * runs of white space (spaces, tabs, line feeds, form feeds, no-break spaces) are one space, lines are trimmed, and
 * there are no empty lines.
 *
 * <p>Left out, as a browser does not show them: the head's metadata (title, script, style, link, meta, ...),
 * script, style, noscript, template, textarea, the fallback content of iframe, video, audio, canvas, progress and
 * meter, datalist, noembed, noframes, ruby's rp, an element with the {@code hidden} attribute or an inline
 * {@code style} saying {@code display: none}, a dialog not open, the content of a details element not open but its
 * summary, and inside SVG everything but the text of {@code <text>} and of a foreignObject. Style sheets are not
 * applied, so text a style sheet hides is kept.
 *
 * <p>Checked against Debian's headless Chromium on a page of every HTML element ({@code RenderedTextTest}, whose
 * resources hold the page, Chromium's text and the script that made it). MathML is read as plain inline text, where
 * Chromium lays each token out on its own line and writes a one-letter identifier in mathematical italic.
 */
final class RenderedText {
  /*
   * Works on the tree of HtmlElements (jsoup's tokenizer, its plain tree builder): elements nest as written, so an
   * unclosed <li> or <p> holds the next one. That changes nothing here, since a nested block starts a line as a
   * sibling would. What the HTML5 tree builder would move out of <head> (a <p> of a page without <body>) stays
   * there, so the head is not left out whole: only its metadata elements are.
   */
  private final StringBuilder out;
  private boolean lineStart = true;
  private boolean space; // white space seen since the last character written: one space before the next one

  private RenderedText(int capacity) {
    out = new StringBuilder(capacity);
  }

  /** The rendered text of {@code root} and its descendants. */
  static String of(Element root) {
    RenderedText text = new RenderedText(1024);
    text.children(root, false, false);
    int end = text.out.length();
    return end > 0 && text.out.charAt(end - 1) == '\n' ? text.out.substring(0, end - 1) : text.out.toString();
  }

  private void children(Element parent, boolean pre, boolean inSvg) {
    for (int i = 0, n = parent.childNodeSize(); i < n; i++) {
      Node child = parent.childNode(i);
      if (child instanceof TextNode t) {
        if (!inSvg) {
          text(t.getWholeText(), pre);
        }
      } else if (child instanceof Element e) {
        element(e, pre, inSvg);
      } else if (pre && child instanceof DataNode d) {
        text(d.getWholeData(), true); // xmp and plaintext: raw text, markup shown as written
      }
    }
  }

  private void element(Element e, boolean pre, boolean inSvg) {
    String name = e.normalName();
    if (inSvg) {
      svg(e, name);
      return;
    }
    if (e.hasAttr("hidden") || e.hasAttr("style") && hidesItself(e.attr("style"))) {
      return;
    }
    switch (name) {
      case "head", "html", "body" -> children(e, pre, false); // the head's metadata is left out below
      case "title", "script", "style", "noscript", "template", "meta", "link", "base", "basefont", "bgsound",
          "textarea", "iframe", "video", "audio", "canvas", "progress", "meter", "datalist", "noembed", "noframes",
          "rp", "param", "source", "track", "area", "img", "input", "embed", "wbr", "col", "colgroup", "frame",
          "keygen", "command" -> { }
      case "br" -> lineBreak();
      case "svg" -> children(e, false, true);
      case "pre", "listing", "xmp", "plaintext" -> block(e, true);
      case "td", "th" -> { // a tab between the cells of a row: a space here
        space = true;
        children(e, pre, false);
        space = true;
      }
      case "details" -> details(e, pre);
      case "dialog" -> {
        if (e.hasAttr("open")) {
          block(e, pre);
        }
      }
      case "object" -> {
        if (showsFallback(e)) {
          children(e, pre, false);
        }
      }
      default -> {
        if (isBlock(name)) {
          block(e, pre);
        } else {
          children(e, pre, false);
        }
      }
    }
  }

  private void block(Element e, boolean pre) {
    lineBreak();
    children(e, pre, false);
    lineBreak();
  }

  /** A details element: its summary always, the rest when it is open. */
  private void details(Element details, boolean pre) {
    lineBreak();
    if (details.hasAttr("open")) {
      children(details, pre, false);
    } else {
      for (Element child : details.children()) {
        if (child.normalName().equals("summary")) {
          block(child, pre);
          break;
        }
      }
    }
    lineBreak();
  }

  /** Inside SVG only {@code <text>} (a block of its own) and a foreignObject's HTML are shown. */
  private void svg(Element e, String name) {
    switch (name) {
      case "text" -> {
        lineBreak();
        svgText(e);
        lineBreak();
      }
      case "foreignobject" -> children(e, false, false);
      case "title", "desc", "style", "script" -> { }
      default -> children(e, false, true);
    }
  }

  private void svgText(Element text) {
    for (int i = 0, n = text.childNodeSize(); i < n; i++) {
      Node child = text.childNode(i);
      if (child instanceof TextNode t) {
        text(t.getWholeText(), false);
      } else if (child instanceof Element e && !e.normalName().equals("title") && !e.normalName().equals("desc")) {
        svgText(e); // tspan, textPath, a
      }
    }
  }

  private void text(String text, boolean pre) {
    for (int i = 0, n = text.length(); i < n; i++) {
      char c = text.charAt(i);
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\u00a0') {
        if (pre && c == '\n') {
          lineBreak();
        } else {
          space = true;
        }
      } else {
        if (space && !lineStart) {
          out.append(' ');
        }
        out.append(c);
        space = false;
        lineStart = false;
      }
    }
  }

  private void lineBreak() {
    if (!lineStart) {
      out.append('\n');
      lineStart = true;
    }
    space = false;
  }

  /**
   * Whether an object shows its fallback content: when what it embeds is no image, page or PDF a browser would show
   * in its place (a plug-in's, as Flash was).
   */
  private static boolean showsFallback(Element object) {
    String type = object.attr("type");
    if (type.startsWith("image/") || type.equals("text/html") || type.equals("application/pdf")) {
      return false;
    }
    String data = object.attr("data").toLowerCase(java.util.Locale.ROOT);
    int query = data.indexOf('?');
    String path = query < 0 ? data : data.substring(0, query);
    return type.isEmpty() && !data.isEmpty() ? !(path.endsWith(".svg") || path.endsWith(".png")
        || path.endsWith(".jpg") || path.endsWith(".jpeg") || path.endsWith(".gif") || path.endsWith(".webp")
        || path.endsWith(".html") || path.endsWith(".htm") || path.endsWith(".pdf")) : true;
  }

  /** Whether an inline style says {@code display: none}. */
  static boolean hidesItself(String style) {
    int at = indexOfIgnoreCase(style, "display");
    while (at >= 0) {
      int i = at + "display".length();
      while (i < style.length() && isSpace(style.charAt(i))) {
        i++;
      }
      if (i < style.length() && style.charAt(i) == ':') {
        i++;
        while (i < style.length() && isSpace(style.charAt(i))) {
          i++;
        }
        if (style.regionMatches(true, i, "none", 0, 4)
            && (i + 4 == style.length() || !Character.isLetterOrDigit(style.charAt(i + 4))
                && style.charAt(i + 4) != '-')) {
          return true;
        }
      }
      at = indexOfIgnoreCase(style, "display", at + 1);
    }
    return false;
  }

  private static int indexOfIgnoreCase(String text, String word) {
    return indexOfIgnoreCase(text, word, 0);
  }

  private static int indexOfIgnoreCase(String text, String word, int from) {
    for (int i = from; i <= text.length() - word.length(); i++) {
      if (text.regionMatches(true, i, word, 0, word.length())) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
  }

  /** Elements a browser's style sheet makes block-level (or a table row, caption or list item): each on its lines. */
  private static boolean isBlock(String name) {
    return switch (name) {
      case "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "menu", "dir",
          "address", "article", "aside", "blockquote", "center", "figure", "figcaption", "footer", "header", "hgroup",
          "main", "nav", "section", "search", "form", "fieldset", "legend", "hr", "table", "caption", "tr",
          "summary", "option", "optgroup", "frameset" -> true;
      default -> false;
    };
  }
}
