package io.sievecrawl.crawler.report;

/**
 * Why a URL the crawl met is not fetched. Each reason carries its wire name, the string the outputs use: the skip
 * log's {@code reason}, a page's links' {@code notFollowed} in the results, and the keys of the summary's
 * {@code skipped} and {@code notFollowed} counts (and of the totals a crawl directory keeps). The wire names are part
 * of those formats: a reason may be added, never renamed.
 *
 * <p>The first group is what the skip log and a page's links name; the last group is only counted among the links
 * not followed.
 */
public enum SkipReason {
  /** Its site is not in scope (crawl.scope; for a requisite, requisites.scope). */
  OUT_OF_SCOPE_HOST("out-of-scope-host"),
  /** A local address a public page led to (crawl.allow-private-addresses). */
  OUT_OF_SCOPE_PRIVATE("out-of-scope-private"),
  /** Left out by crawl.include or crawl.exclude. */
  OUT_OF_SCOPE_PATTERN("out-of-scope-pattern"),
  /** Deeper than crawl.max-depth. */
  OUT_OF_SCOPE_DEPTH("out-of-scope-depth"),
  /** A path a spider-trap guard refuses (too many segments, one repeated too often). */
  OUT_OF_SCOPE_TRAP("out-of-scope-trap"),
  /** Longer than traps.max-url-length once normalized. */
  TOO_LONG("too-long"),
  /** Admitted before (or a false positive of the URL filter). */
  SEEN("seen"),
  /** Disallowed by robots.txt. */
  ROBOTS("robots"),
  /** Its origin was given up: robots.txt could not be fetched. */
  ROBOTS_UNAVAILABLE("robots-unavailable"),
  /** Its origin could not be reached; no request was sent for this URL. */
  ORIGIN_UNREACHABLE("origin-unreachable"),
  /** Past its origin's crawl.max-pages-per-host. */
  HOST_BUDGET("host-budget"),
  /** A recrawl's URL fetched after the recrawl's cutoff: kept as its last visit left it. */
  FRESH("fresh"),

  /** A redirect to a URL admitted before (the redirect's record names it; the skip log says {@link #SEEN}). */
  REDIRECT_TO_SEEN_URL("redirect-to-seen-url"),
  /** Links of a page past crawl.max-links-per-page. */
  LINKS_OVER_PAGE_CAP("links-over-page-cap"),
  /** Requisites of a page past the same cap. */
  REQUISITES_OVER_PAGE_CAP("requisites-over-page-cap"),
  /** A link that is no URL. */
  INVALID_URL("invalid-url");

  private final String wireName;

  SkipReason(String wireName) {
    this.wireName = wireName;
  }

  /** The name the outputs use: {@code out-of-scope-host}, {@code seen}, ... */
  public String wireName() {
    return wireName;
  }

  /** The wire name, as the outputs write it. */
  @Override
  public String toString() {
    return wireName;
  }

  /** How a requisite refused for this reason is counted among the links not followed: {@code requisite-...}. */
  String ofRequisite() {
    return "requisite-" + wireName;
  }
}
