package io.sievecrawl.crawler.lease;

import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.encoding.WebEncoding;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.html.CssUrls;
import io.sievecrawl.crawler.report.CrawlStats;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.crawler.url.ReferenceResolver;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A style sheet fetched as a requisite: the URLs it refers to ({@code url()}, {@code @import}, {@code image-set()})
 * are requisites too, of the page that needed the sheet, offered as the sheet's own (its URL is their referrer) and
 * resolved against it. Nothing else of a sheet is read.
 */
final class StyleSheetReader implements LeaseStep {
  private final UrlNormalizer normalizer;
  private final int maxRequisites;
  private final CrawlStats stats;

  StyleSheetReader(UrlNormalizer normalizer, int maxRequisites, CrawlStats stats) {
    this.normalizer = normalizer;
    this.maxRequisites = maxRequisites;
    this.stats = stats;
  }

  @Override
  public Outcome handle(Chain chain) throws IOException {
    FetchResponse response = chain.response();
    CrawlTask task = chain.task();
    if (!task.requisite() || !"text/css".equals(response.contentType()) || response.body().length == 0
        || (response.errorKind() != null && !response.isCutOff()) || response.status() / 100 != 2) {
      return chain.proceed();
    }
    List<String> found = new ArrayList<>();
    int overCap = CssUrls.scan(decode(response.body(), response.charset()), found, maxRequisites);
    if (overCap > 0) {
      stats.notAdmitted(SkipReason.REQUISITES_OVER_PAGE_CAP, overCap);
    }
    ReferenceResolver resolver = normalizer.resolverFor(task.url()); // CSS URLs are UTF-8, whatever the sheet's
    Set<Url> urls = new LinkedHashSet<>();
    for (String reference : found) {
      Url url = resolver.resolveOrNull(reference);
      if (url != null) {
        urls.add(url);
      }
    }
    List<CrawlTask> requisites = new ArrayList<>(urls.size());
    for (Url url : urls) {
      requisites.add(task.requisiteOf(url));
    }
    return Outcome.complete(chain.record().withContent(found.size(), false, null, null)).withRequisites(requisites);
  }

  /**
   * The text of a style sheet, decoded as CSS Syntax says: a byte-order mark, else the Content-Type's charset, else
   * {@code @charset "..."} at its very start, else UTF-8.
   */
  static String decode(byte[] body, String headerCharset) {
    WebEncoding encoding = bomEncoding(body);
    if (encoding == null) {
      encoding = WebEncoding.forLabel(headerCharset);
    }
    if (encoding == null) {
      encoding = WebEncoding.forLabel(charsetRule(body));
    }
    if (encoding == null || encoding == WebEncoding.UTF_16BE || encoding == WebEncoding.UTF_16LE) {
      encoding = encoding != null && bomEncoding(body) != null ? encoding : WebEncoding.UTF_8;
    }
    return encoding.decode(body);
  }

  private static WebEncoding bomEncoding(byte[] b) {
    if (b.length >= 3 && (b[0] & 0xFF) == 0xEF && (b[1] & 0xFF) == 0xBB && (b[2] & 0xFF) == 0xBF) {
      return WebEncoding.UTF_8;
    }
    if (b.length >= 2 && (b[0] & 0xFF) == 0xFE && (b[1] & 0xFF) == 0xFF) {
      return WebEncoding.UTF_16BE;
    }
    if (b.length >= 2 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xFE) {
      return WebEncoding.UTF_16LE;
    }
    return null;
  }

  /** The label of {@code @charset "label";} when the sheet starts with it, byte for byte; {@code null} otherwise. */
  private static String charsetRule(byte[] b) {
    byte[] start = "@charset \"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    if (b.length <= start.length || !java.util.Arrays.equals(b, 0, start.length, start, 0, start.length)) {
      return null;
    }
    for (int i = start.length; i < b.length - 1 && i < 1024; i++) {
      if (b[i] == '"' && b[i + 1] == ';') {
        return new String(b, start.length, i - start.length, java.nio.charset.StandardCharsets.US_ASCII);
      }
    }
    return null;
  }
}
