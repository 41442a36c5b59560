/**
 * Link extraction from HTML pages with jsoup: start with {@link io.sievecrawl.crawler.html.LinkExtractor}. The
 * charset of a page is decided before parsing ({@code HtmlCharset}), the page is parsed by jsoup's tokenizer with its
 * plain tree builder ({@code HtmlElements}), and a meta refresh is read as the HTML standard says
 * ({@code MetaRefresh}).
 */
package io.sievecrawl.crawler.html;
