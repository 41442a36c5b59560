package io.sievecrawl.crawler.bench;

import java.util.SplittableRandom;

/**
 * The pages of a generated site: {@code pages} HTML pages of realistic size (about 8 to 40 KB), each linking to its
 * successor (so every page is reachable from {@code /}) and to {@code fanOut} pages chosen at random, with links
 * written in the forms real pages use (absolute, relative, with fragments, repeated), and showing an image of its own
 * ({@code /img/N.png}) and the site's style sheet. Page 0 is {@code /}.
 *
 * <p>{@link #varied} pages add the markup of reference documentation ({@link VariedMarkup}) to each page: what a
 * training run shows the JIT compiler, so that the code it compiles for the plain pages of a benchmark is not all it
 * has seen of HTML.
 */
final class SyntheticPages {
  private static final String FILLER = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod "
      + "tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation. ";

  private final int pages;
  private final int fanOut;
  private final boolean varied;

  SyntheticPages(int pages, int fanOut) {
    this(pages, fanOut, false);
  }

  SyntheticPages(int pages, int fanOut, boolean varied) {
    this.pages = pages;
    this.fanOut = fanOut;
    this.varied = varied;
  }

  boolean varied() {
    return varied;
  }

  int pages() {
    return pages;
  }

  /** The page a path names, or -1. */
  int pageOf(String path) {
    if (path.equals("/")) {
      return 0;
    }
    if (!path.startsWith("/section/") || !path.endsWith(".html")) {
      return -1;
    }
    try {
      int slash = path.lastIndexOf('/');
      int page = Integer.parseInt(path.substring(slash + 1, path.length() - 5));
      return page >= 0 && page < pages && path.equals(pathOf(page)) ? page : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The path of the image page {@code page} shows (a requisite of its own). */
  static String imageOf(int page) {
    return "/img/" + page + ".png";
  }

  /** The page whose image a path names, or -1. */
  int imageOf(String path) {
    if (!path.startsWith("/img/") || !path.endsWith(".png")) {
      return -1;
    }
    try {
      int page = Integer.parseInt(path.substring(5, path.length() - 4));
      return page >= 0 && page < pages && path.equals(imageOf(page)) ? page : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  static String pathOf(int page) {
    return page == 0 ? "/" : "/section/" + (page % 50) + "/" + page + ".html";
  }

  /** Page {@code page}; absolute links start with {@code origin} ({@code http://host:port}). */
  String render(int page, String origin) {
    SplittableRandom random = new SplittableRandom(page * 0x9E3779B97F4A7C15L);
    StringBuilder html = new StringBuilder(48 * 1024);
    html.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>Page ").append(page)
        .append("</title>").append(varied ? "<meta name=\"Generator\" content=\"SyntheticSite (Varied)\">" : "")
        .append("<link rel=\"stylesheet\" href=\"/static/site.css\"></head><body><nav>")
        .append("<a href=\"/\">Home</a> <a href=\"/#top\">Top</a></nav><main><h1>Page ").append(page).append("</h1>")
        .append("<img src=\"").append(imageOf(page)).append("\" alt=\"\">");
    int paragraphs = 4 + random.nextInt(30);
    for (int p = 0; p < paragraphs; p++) {
      html.append("<p>").append(FILLER, 0, 60 + random.nextInt(FILLER.length() - 60)).append(FILLER).append("</p>\n");
    }
    html.append("<ul>");
    html.append("<li><a href=\"").append(pathOf((page + 1) % pages)).append("\">next</a></li>");
    for (int i = 0; i < fanOut; i++) {
      int target = random.nextInt(pages);
      String href = switch (i % 4) {
        case 0 -> pathOf(target);
        case 1 -> origin + pathOf(target);
        case 2 -> pathOf(target) + "#section-" + i;
        default -> pathOf(target) + (target == 0 ? "" : "?");
      };
      html.append("<li><a href=\"").append(href).append("\">link ").append(i).append("</a></li>");
    }
    html.append("</ul>");
    if (varied) {
      VariedMarkup.append(html, page, pages, random);
    }
    return html.append("</main></body></html>\n").toString();
  }
}
