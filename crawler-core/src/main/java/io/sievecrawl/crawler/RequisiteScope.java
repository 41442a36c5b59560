package io.sievecrawl.crawler;

import io.sievecrawl.config.RequisiteSettings;
import io.sievecrawl.config.Scope;
import io.sievecrawl.crawler.url.Url;
import java.util.Locale;

/**
 * Where a page's requisites may come from. Not the page's scope: a style sheet on a CDN is needed all the same. By
 * requisites.scope, compared with the page (or style sheet) that needs it: any host, the page's registrable domain, or
 * its site (host, and port when not the default). Whatever that says: no local address (unless
 * crawl.allow-private-addresses), nothing crawl.exclude leaves out, nothing a trap guard refuses ({@link
 * ScopePolicy#requisiteRejection}). No depth limit: a requisite is no hop.
 */
final class RequisiteScope {
  private final Scope scope;
  private final ScopePolicy crawl;

  RequisiteScope(RequisiteSettings settings, ScopePolicy crawl) {
    this.scope = settings.scope();
    this.crawl = crawl;
  }

  /** Why {@code requisite} is not fetched ({@code out-of-scope-host}, ...), or {@code null} if it is. */
  String rejection(CrawlTask requisite) {
    if (scope != Scope.ANY && requisite.referrer() != null && !near(requisite.url(), requisite.referrer())) {
      return "out-of-scope-host";
    }
    ScopePolicy.Reason reason = crawl.requisiteRejection(requisite.url());
    return reason == null ? null : "out-of-scope-" + reason.name().toLowerCase(Locale.ROOT);
  }

  /** Whether {@code url} is on the site (host scope) or registrable domain (domain scope) of {@code page}. */
  private boolean near(Url url, String page) {
    Url of = Url.ofCanonical(page);
    if (scope == Scope.HOST) {
      return ScopePolicy.siteOf(url).equals(ScopePolicy.siteOf(of));
    }
    return url.host().equals(of.host())
        || ScopePolicy.registrableDomain(url.host()).equals(ScopePolicy.registrableDomain(of.host()));
  }
}
