package io.sievecrawl.crawler.lease;

import io.sievecrawl.config.ResultsSettings;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.html.LinkExtractor;
import io.sievecrawl.crawler.html.PageLinks;
import io.sievecrawl.crawler.report.CrawlStats;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.crawler.url.Url;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * An HTML page: its links (offered as one batch), title, with results.text its text, and with requisites.fetch what
 * it needs to be shown. A page cut off on its last attempt still yields the links in the part received, as one cut
 * at the size cap does. A requisite that is HTML is read as a page only when the fetch kept its body (it is in the
 * crawl's scope).
 */
final class PageReader implements LeaseStep {
  private final LinkExtractor links;
  private final boolean recordText;
  private final boolean requisites;
  private final CrawlStats stats;

  PageReader(LinkExtractor links, ResultsSettings results, boolean requisites, CrawlStats stats) {
    this.links = links;
    this.recordText = results.recordText();
    this.requisites = requisites;
    this.stats = stats;
  }

  @Override
  public Outcome handle(Chain chain) throws IOException {
    FetchResponse response = chain.response();
    CrawlTask task = chain.task();
    if ((response.errorKind() != null && !response.isCutOff()) || !response.isHtml()
        || response.status() / 100 != 2 || task.requisite() && response.body().length == 0) {
      return chain.proceed();
    }
    PageLinks page = links.extract(response.body(), response.charset(), task.url(), response.robotsTag(),
        recordText, requisites);
    if (page.overCap() > 0) {
      stats.notAdmitted(SkipReason.LINKS_OVER_PAGE_CAP, page.overCap());
    }
    if (page.requisitesOverCap() > 0) {
      stats.notAdmitted(SkipReason.REQUISITES_OVER_PAGE_CAP, page.requisitesOverCap());
    }
    List<CrawlTask> next = new ArrayList<>(page.urls().size());
    for (Url link : page.urls()) {
      next.add(task.link(link));
    }
    List<CrawlTask> needed = new ArrayList<>(page.requisites().size());
    for (Url requisite : page.requisites()) {
      needed.add(task.requisiteOf(requisite));
    }
    return Outcome.complete(chain.record().withContent(page.found(), false, page.title(), page.text()))
        .withLinks(new Outcome.FoundLinks(next, page.tooLong())).withRequisites(needed);
  }
}
