package io.sievecrawl.crawler.fetch;

/**
 * What a fetch keeps of the body, and how it asks: a page's, a sitemap's or a requisite's.
 *
 * @param keepBody whether an HTML page or an XML document is kept to be read, or only counted
 * @param anyType whether a body of any content type is kept (a sitemap)
 * @param requisite whether it is a page's requisite, asked for as a browser asks ({@code Accept: *}{@code /*})
 * @param foreign whether its origin is outside the crawl's scope: no extra header, no cookie
 * @param readsHtml whether a requisite's HTML is read as a page
 */
record Reading(boolean keepBody, boolean anyType, boolean requisite, boolean foreign, boolean readsHtml) {

  /** A page's or a sitemap's. */
  static Reading page(boolean keepBody, boolean anyType) {
    return new Reading(keepBody, anyType, false, false, false);
  }

  /** A requisite's, its style sheet kept and its HTML when {@code readsHtml}. */
  static Reading requisite(boolean foreign, boolean readsHtml) {
    return new Reading(true, false, true, foreign, readsHtml);
  }

  /**
   * Whether the body is kept to be read: a 2xx HTML page, XML document (a sitemap or a feed, perhaps) or, for a
   * sitemap, anything; a requisite's style sheet, or its HTML when it is read as a page. A page without a usable
   * Content-Type is kept if it starts as HTML, as a browser would show it.
   */
  boolean parses(int status, String contentType) {
    if (!keepBody || status / 100 != 2) {
      return false;
    }
    boolean html = "text/html".equals(contentType) || "application/xhtml+xml".equals(contentType);
    boolean untyped = HtmlSniffer.typeUnknown(contentType);
    if (requisite) {
      return "text/css".equals(contentType) || readsHtml && (html || untyped);
    }
    return anyType || html || untyped || PageFetcher.isXml(contentType);
  }
}
