package io.sievecrawl.crawler.bench;

import java.util.SplittableRandom;

/**
 * Markup of the kind reference documentation is written in, appended to a {@link SyntheticPages} page: comments,
 * scripts and styles holding markup-like text, tables, code with character references, attributes quoted three ways
 * and left empty, upper-case tags, void and self-closed elements, an image map, an inline SVG drawing with its own
 * link, non-ASCII text, and links in relative forms ({@code ../5/105.html}, {@code ./}, queries and fragments), each
 * to a page of the site.
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
        .append(relative(page, random.nextInt(pages))).append("\"><rect width=\"10\" height=\"10\"/></a></svg>\n")
        .append("<!-- ========= END OF CLASS DATA ========= -->\n");
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
