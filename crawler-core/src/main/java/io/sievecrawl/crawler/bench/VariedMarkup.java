package io.sievecrawl.crawler.bench;

import java.util.SplittableRandom;

/**
 * Markup of the kind reference documentation is written in, appended to a {@link SyntheticPages} page: comments,
 * scripts and styles holding markup-like text, tables, code with character references, attributes quoted three ways
 * and left empty, upper-case tags, void and self-closed elements, an image map, an inline SVG drawing with its own
 * link, non-ASCII text, and links in relative forms ({@code ../5/105.html}, {@code ./}, queries and fragments), each
 * to a page of the site; and a footer of what the crawler does not follow (other sites, {@code mailto:} and the like),
 * a custom element, a text area and a frame.
 */
final class VariedMarkup {
  private static final String[] WORDS = {"stream", "buffer", "naïve", "café", "résumé", "código", "日本語", "Größe",
      "element", "returns", "the", "value", "of", "this", "map", "key", "→", "null", "if", "none"};

  private VariedMarkup() {}

  /** Appends the varied part of page {@code page} of a site of {@code pages} pages. */
  static void append(StringBuilder html, int page, int pages, SplittableRandom random) {
    html.append("\n<!-- ========= START OF CLASS DATA ======== -->\n")
        .append("<script type=\"text/javascript\">var pathtoroot = \"../../\"; if (a < b && b > c) { ")
        .append("document.write('<a href=\"not-a-link.html\">x</a>'); }</script>\n")
        .append("<style>td > a[href] { color: #123; } /* <b>not markup</b> */</style>\n")
        .append("<noscript><div>JavaScript is disabled on your browser.</div></noscript>\n")
        .append("<div class=\"header\"><h2 title='Class Summary' class=title>Class ").append(page).append("</h2>\n")
        .append("<DIV CLASS=\"sub-title\">Since <SPAN>1.").append(page % 20).append("</SPAN></DIV></div>\n");
    html.append("<section class=\"summary\" id=\"method-summary\"><table class=\"summary-table\">")
        .append("<caption><span>Methods</span><span class=\"tab-end\">&nbsp;</span></caption>\n")
        .append("<thead><tr><th class=\"col-first\" scope=\"col\">Modifier and Type</th>")
        .append("<th scope=col>Method</th><th>Description</th></tr></thead><tbody>\n");
    int rows = 3 + random.nextInt(12);
    for (int r = 0; r < rows; r++) {
      int target = random.nextInt(pages);
      html.append("<tr class=\"").append(r % 2 == 0 ? "even-row-color" : "odd-row-color").append("\">")
          .append("<td class=\"col-first\"><code>static &lt;T&gt;&nbsp;<a href=\"").append(relative(page, target))
          .append("\" title=\"class in ").append(word(random)).append("\">").append(word(random)).append("</a>")
          .append("&lt;T&gt;</code></td><td class=col-second><code><a href=\"").append(relative(page, target))
          .append("#method(int,java.lang.String)\">method").append(r).append("</a>(int&nbsp;x, ")
          .append("<a href=\"").append(relative(page, (target + 1) % pages)).append("?view=all&amp;sort=name\">")
          .append("String</a>&nbsp;s)</code></td><td class='col-last'><div class=\"block\">")
          .append(word(random)).append(' ').append(word(random)).append(" &amp; ").append(word(random))
          .append(" &#8212; ").append(word(random)).append(" &quot;").append(word(random)).append("&quot;")
          .append("</div></td></tr>\n");
    }
    html.append("</tbody></table></section>\n");
    html.append("<pre class=\"snippet\"><code>Map&lt;String, List&lt;Integer&gt;&gt; m = new HashMap&lt;&gt;();\n")
        .append("if (x &lt; 0 &amp;&amp; y &gt;= 1) { m.put(\"&#64;key\", null); } // &copy; &eacute;</code></pre>\n")
        .append("<dl class=\"notes\"><dt>See Also:</dt><dd><ul class=\"see-list\"><li><a href=\"./")
        .append(fileOf(random.nextInt(pages))).append("\"><code>").append(word(random)).append("</code></a></li>")
        .append("<li><a href=\"").append(relative(page, random.nextInt(pages))).append("#")
        .append(word(random)).append("\">").append(word(random)).append("</a></li></ul></dd>")
        .append("<dt>Since:</dt><dd>").append(page % 9 + 1).append(".0</dd></dl>\n")
        .append("<p>Line one<br>line two<br/>line three <img src=\"../../resources/glass.png\" alt=\"\" width=16>")
        .append(" <input type=\"text\" disabled placeholder='Search'> <button type=button>Go</button></p>\n")
        .append("<map name=\"m").append(page).append("\"><area shape=\"rect\" coords=\"0,0,10,10\" href=\"")
        .append(relative(page, random.nextInt(pages))).append("\" alt=\"area\"></map>\n")
        .append("<svg width=\"10\" height=\"10\"><title>Icon</title><a xlink:href=\"")
        .append(relative(page, random.nextInt(pages))).append("\"><rect width=\"10\" height=\"10\"/></a></svg>\n");
    appendElsewhere(html, page, pages, random);
    html.append("<!-- ========= END OF CLASS DATA ========= -->\n");
  }

  /*
   * What nearly every real page has and a crawl of one site alone does not: links the crawler does not follow (other
   * sites, out of scope; mailto:, javascript: and tel:, which resolve to nothing; fragments of the page itself), a link
   * that only the general URL parser reads (a percent-escape and a space in its query), character references without
   * their ';' or unknown, an end tag with nothing to close, list items left open, an element no standard names, a
   * frame and a text area.
   * Without them the profiles the compiler starts from say that every link resolves and every tag is known, and the
   * code it compiles is thrown away and compiled again at the first page that shows otherwise: the largest units of a
   * crawl (the parse's step, the link extractor, the resolver) were each compiled two to four times over the javadoc.
   * The other sites are names reserved for examples (RFC 2606), never fetched: a crawl follows its seeds' hosts only.
   */
  private static void appendElsewhere(StringBuilder html, int page, int pages, SplittableRandom random) {
    int target = random.nextInt(pages);
    html.append("<!-- generated 2026-11-29 - do not edit --><hr><footer><p><a href=\"#top\">Top</a> <a href=\"#\">")
        .append("Menu</a> See <a href=\"https://www.example.org/docs/api/").append(word(random))
        .append(".html\">the API</a>, <a href=\"http://example.com\">Example</a>, <a href=\"https://api-docs.example/")
        .append(page % 11).append("\">its docs</a>, ")
        .append("<a href=\"mailto:docs@example.org?subject=Page%20").append(page).append("\">write</a>, ")
        .append("<a href=\"javascript:void(0)\" onclick=\"return false;\">menu</a> or ")
        .append("<a href=\"tel:+1-555-0100\">call</a>; <a href=\"").append(relative(page, 1))
        .append("?q=caf%C3%A9 au lait\">caf&eacute;</a>.<wbr> Long&shy;word &copy 2026 &#x2014; &#169; &nosuch;")
        .append(" <b>bold <i>both</b> italic</i></span></p>\n<ul class=\"index\">");
    for (int i = 0; i < 40; i++) { // items left open, as HTML allows: a parser that does not close them nests them
      html.append("<li>").append(word(random));
    }
    html.append("</ul>\n")
        .append("<search-field data-index=\"").append(page % 7).append("\"><textarea name=q rows=2>&lt;b&gt; ")
        .append(word(random)).append("</textarea></search-field>\n")
        .append("<iframe src=\"").append(relative(page, (target + 1) % pages))
        .append("\" title=\"frame\" width=\"0\" height=\"0\"></iframe></footer>\n");
  }

  private static String word(SplittableRandom random) {
    return WORDS[random.nextInt(WORDS.length)];
  }

  /** The link from page {@code from} to page {@code to} relative to {@code from}'s directory. */
  private static String relative(int from, int to) {
    if (to == 0) {
      return from == 0 ? "./" : "../../";
    }
    return (from == 0 ? "section/" : "../") + (to % 50) + "/" + to + ".html";
  }

  /** The file name of a page in the same section, for a {@code ./name} link: any page for the root. */
  private static String fileOf(int page) {
    return page == 0 ? "" : page + ".html";
  }
}
