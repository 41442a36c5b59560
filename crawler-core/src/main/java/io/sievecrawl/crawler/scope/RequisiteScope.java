package io.sievecrawl.crawler.scope;

import io.sievecrawl.config.RequisiteSettings;
import io.sievecrawl.config.Scope;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.crawler.url.Url;

/**
 * Where a page's requisites may come from. Not the page's scope: a style sheet on a CDN is needed all the same. By
 * requisites.scope, compared with the page (or style sheet) that needs it: any host, the page's registrable domain, or
 * its site (host, and port when not the default). Whatever that says: no local address (unless
 * crawl.allow-private-addresses), nothing crawl.exclude leaves out, nothing a trap guard refuses ({@link
 * ScopePolicy#requisiteRejection}). No depth limit: a requisite is no hop.
 */
public final class RequisiteScope {
  private final Scope scope;
  private final ScopePolicy crawl;

  public RequisiteScope(RequisiteSettings settings, ScopePolicy crawl) {
    this.scope = settings.scope();
    this.crawl = crawl;
  }

  /**
   * Why the requisite {@code url}, needed by {@code referrer} (the page or style sheet, {@code null} for none), is not
   * fetched (an {@code OUT_OF_SCOPE_...}), or {@code null} if it is.
   */
  public SkipReason rejection(Url url, String referrer) {
    if (scope != Scope.ANY && referrer != null && !near(url, referrer)) {
      return SkipReason.OUT_OF_SCOPE_HOST;
    }
    return crawl.requisiteRejection(url);
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
