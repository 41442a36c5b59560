package io.sievecrawl.crawler;

import io.sievecrawl.config.ResultsSettings;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.html.LinkExtractor;
import io.sievecrawl.crawler.html.PageLinks;
import io.sievecrawl.crawler.url.Url;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * An HTML page: its links (offered as one batch), title and, with results.text, its text. A page cut off on its
 * last attempt still yields the links in the part received, as one cut at the size cap does.
 */
final class PageReader implements LeaseStep {
  private final LinkExtractor links;
  private final boolean recordText;
  private final CrawlStats stats;

  PageReader(LinkExtractor links, ResultsSettings results, CrawlStats stats) {
    this.links = links;
    this.recordText = results.recordText();
    this.stats = stats;
  }

  @Override
  public Outcome handle(Chain chain) throws IOException {
    FetchResponse response = chain.response();
    if ((response.errorKind() != null && !response.isCutOff()) || !response.isHtml()
        || response.status() / 100 != 2) {
      return chain.proceed();
    }
    CrawlTask task = chain.task();
    PageLinks page = links.extract(response.body(), response.charset(), task.url(), response.robotsTag(),
        recordText);
    if (page.overCap() > 0) {
      stats.notAdmitted("links-over-page-cap", page.overCap());
    }
    List<CrawlTask> next = new ArrayList<>(page.urls().size());
    for (Url link : page.urls()) {
      next.add(task.link(link));
    }
    return Outcome.complete(chain.record().withContent(page.found(), false, page.title(), page.text()))
        .withLinks(new Outcome.FoundLinks(next, page.tooLong()));
  }
}
