package io.sievecrawl.crawler;

import io.sievecrawl.crawler.fetch.Revalidation;
import java.time.Instant;
import java.util.Objects;

/**
 * A URL's state as the last crawl of it left it, carried by the task that visits it again in a recrawl.
 *
 * @param fetchedAt when it was last fetched
 * @param status the status it last answered, or {@code null} (a network error)
 * @param revalidation its validators and last full capture
 * @param gone how many visits in a row it answered 404 or 410: at {@code recrawl.forget-after} it is forgotten
 * @param fresh whether it was fetched after the recrawl's cutoff ({@code recrawl.after} before the recrawl began):
 *     then it is kept as it is, not fetched
 * @param depth its depth in the crawl that found it, kept so that crawl.max-depth holds across recrawls
 * @param sitemap whether it was read as a sitemap
 * @param requisite whether it was fetched as a page's requisite (a style sheet, an image, ...)
 */
public record LastVisit(Instant fetchedAt, Integer status, Revalidation revalidation, int gone, boolean fresh,
    int depth, boolean sitemap, boolean requisite) {

  public LastVisit {
    Objects.requireNonNull(fetchedAt, "fetchedAt");
    Objects.requireNonNull(revalidation, "revalidation");
  }

  /** A page's or a sitemap's last visit. */
  public LastVisit(Instant fetchedAt, Integer status, Revalidation revalidation, int gone, boolean fresh, int depth,
      boolean sitemap) {
    this(fetchedAt, status, revalidation, gone, fresh, depth, sitemap, false);
  }
}
