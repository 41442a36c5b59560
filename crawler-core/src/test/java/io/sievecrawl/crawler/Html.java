package io.sievecrawl.crawler;

/** Small HTML pages for test sites. */
final class Html {
  private Html() {}

  /** A page whose body holds one {@code <a href>} per link. */
  static String page(String title, String... hrefs) {
    StringBuilder body = new StringBuilder("<!doctype html><html><head><title>").append(title)
        .append("</title></head><body><h1>").append(title).append("</h1>\n");
    for (String href : hrefs) {
      body.append("<p><a href=\"").append(href).append("\">").append(href).append("</a></p>\n");
    }
    return body.append("</body></html>\n").toString();
  }
}
