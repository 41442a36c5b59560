package io.sievecrawl.config;

/**
 * A page's requisites, what it needs to be shown (style sheets, images, scripts, media): the {@code requisites.*}
 * keys.
 *
 * @param fetch whether the crawl fetches them: {@code requisites.fetch} on, or auto with WARC output
 * @param scope where they may come from, compared with the page that needs them: the same host (site), the same
 *     registrable domain, or any ({@code requisites.scope})
 * @param maxBodySize the largest requisite body read, in bytes received ({@code requisites.max-body-size}); a style
 *     sheet, read for its own requisites, is capped at fetch.max-body-size as a page is
 */
public record RequisiteSettings(boolean fetch, Scope scope, long maxBodySize) {

  static RequisiteSettings from(CrawlSettings s) {
    RequisiteFetch mode = s.get(Setting.REQUISITES_FETCH);
    boolean fetch = mode == RequisiteFetch.ON || mode == RequisiteFetch.AUTO && !s.get(Setting.WARC_DIR).isEmpty();
    return new RequisiteSettings(fetch, s.get(Setting.REQUISITES_SCOPE), s.get(Setting.REQUISITES_MAX_BODY_SIZE));
  }
}
