package io.sievecrawl.crawler.lease;

import io.sievecrawl.config.RobotsSettings;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.fetch.PageFetcher;
import io.sievecrawl.crawler.report.CrawlStats;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.crawler.result.ErrorKind;
import io.sievecrawl.crawler.sitemap.SitemapReader;
import io.sievecrawl.crawler.url.ReferenceResolver;
import io.sievecrawl.crawler.url.Url;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Sitemaps and feeds: the URLs a sitemap lists are offered at its depth. A URL fetched as a sitemap that is none is
 * recorded as such; an XML document that was not asked for as a sitemap (a seed, or a link with
 * robots.follow-sitemaps on) is read as one if it is one, and as a page without links if not.
 */
final class ListingReader implements LeaseStep {
  private final UrlNormalizer normalizer;
  private final boolean followSitemaps;
  private final CrawlStats stats;

  ListingReader(UrlNormalizer normalizer, RobotsSettings robots, CrawlStats stats) {
    this.normalizer = normalizer;
    this.followSitemaps = robots.followSitemaps();
    this.stats = stats;
  }

  @Override
  public Outcome handle(Chain chain) throws IOException {
    FetchResponse response = chain.response();
    CrawlTask task = chain.task();
    if (response.errorKind() != null || response.status() / 100 != 2) {
      return chain.proceed();
    }
    if (task.sitemap()) {
      try {
        return read(chain, task, response);
      } catch (SitemapReader.NotASitemapException e) {
        return Outcome.complete(chain.record().withError(ErrorKind.NOT_A_SITEMAP, e.getMessage()));
      }
    }
    if (mayListPages(task, response)) {
      try {
        return read(chain, task, response);
      } catch (SitemapReader.NotASitemapException e) {
        return Outcome.complete(chain.record()); // an XML document of another kind: a page without links
      }
    }
    return chain.proceed();
  }

  /**
   * Whether a response that was not asked for as a sitemap may still be one, or a feed, to read the pages it lists
   * from: an XML document (or a gzip file named {@code .xml.gz}) that is a seed, or is linked with
   * robots.follow-sitemaps on. A seed that is a sitemap makes the pages it lists seeds of the crawl.
   */
  private boolean mayListPages(CrawlTask task, FetchResponse response) {
    boolean seed = task.referrer() == null;
    return !response.isHtml() && response.body().length > 0 && (seed || followSitemaps)
        && (PageFetcher.isXml(response.contentType()) || task.url().path().endsWith(".xml.gz"));
  }

  /** The listing's URLs offered; its record counts them as the page's links. */
  private Outcome read(Chain chain, CrawlTask task, FetchResponse response)
      throws SitemapReader.NotASitemapException {
    SitemapReader.Listing listing = SitemapReader.read(response.body(), response.contentType(), task.key());
    if (listing.overCap() > 0) {
      stats.notAdmitted(SkipReason.LINKS_OVER_PAGE_CAP, listing.overCap());
    }
    ReferenceResolver resolver = normalizer.resolverFor(task.url());
    List<CrawlTask> listed = new ArrayList<>(listing.urls().size());
    for (String entry : listing.urls()) {
      Url url = resolver.resolveOrNull(entry);
      if (url == null) {
        stats.notAdmitted(SkipReason.INVALID_URL);
      } else {
        listed.add(task.listed(url, listing.index()));
      }
    }
    int found = listing.urls().size() + listing.overCap();
    return Outcome.complete(chain.record().withContent(found, listing.truncated(), null, null))
        .withListed(listed);
  }
}
