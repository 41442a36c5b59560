package io.sievecrawl.crawler.home;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.FilterSettings;
import io.sievecrawl.config.Setting;
import java.util.Locale;
import java.util.Optional;

/**
 * What a crawl is, fixed when it is created: the URL filter's n and p, whether an exact store confirms the filter,
 * and the generation (0 for the first crawl, one more for each recrawl).
 *
 * <p>One rule decides whether a run may go on with other settings ({@link #mismatch}): filter.confirm never changes;
 * n and p are fixed, and may change only where an exact store can rebuild the filter at the new size.
 *
 * @param n the URL filter's n
 * @param p the URL filter's p
 * @param confirm whether an exact store confirms the filter's "maybe seen" answers
 * @param generation 0 for the first crawl, then one more for each recrawl
 */
public record CrawlIdentity(long n, double p, boolean confirm, int generation) {
  /** A directory's crawl run again, for {@link #mismatch}. */
  public static final String RESUMES = "when a crawl resumes";
  /** A shared crawl an agent starts or joins, for {@link #mismatch}. */
  public static final String JOINS = "when an agent joins";

  /** The identity a new crawl with {@code settings} gets. */
  public static CrawlIdentity of(CrawlSettings settings) {
    FilterSettings filter = settings.filter();
    return new CrawlIdentity(filter.expectedUrls(), filter.falsePositiveRate(), filter.confirm(), 0);
  }

  /**
   * Why a run with {@code given} cannot go on with this crawl, in one line, or empty if it can.
   *
   * @param when what the run does to the crawl, as a message says it: {@link #RESUMES} or {@link #JOINS}
   * @param crawl the crawl as a message names it, e.g. {@code "the crawl in DIR"}
   * @param resizable whether the home can rebuild its filter from the exact store at a new n and p
   */
  public Optional<String> mismatch(CrawlSettings given, String when, String crawl, boolean resizable) {
    FilterSettings filter = given.filter();
    if (filter.confirm() != confirm && !given.origin(Setting.FILTER_CONFIRM).equals("default")) {
      return Optional.of(Setting.FILTER_CONFIRM.key() + " cannot change " + when + ": " + crawl + " was"
          + " created with it " + (confirm ? "on" : "off") + " (given " + given.origin(Setting.FILTER_CONFIRM) + ": "
          + filter.confirm() + ")");
    }
    if (confirm && resizable) {
      return Optional.empty(); // the filter is rebuilt from the exact store at the new n and p
    }
    if (filter.expectedUrls() != n) {
      return Optional.of(Setting.FILTER_N.key() + " cannot change " + when + ": " + crawl + " was sized for"
          + String.format(Locale.ROOT, " n = %,d (given %s: %,d)", n, given.origin(Setting.FILTER_N),
          filter.expectedUrls()));
    }
    if (Double.compare(filter.falsePositiveRate(), p) != 0) {
      return Optional.of(Setting.FILTER_P.key() + " cannot change " + when + ": " + crawl + " was sized for"
          + " p = " + p + " (given " + given.origin(Setting.FILTER_P) + ": " + filter.falsePositiveRate() + ")");
    }
    return Optional.empty();
  }

  /** Whether {@code given} asks for another filter size than this crawl's (allowed only by {@link #mismatch}). */
  public boolean resizedBy(CrawlSettings given) {
    FilterSettings filter = given.filter();
    return filter.expectedUrls() != n || Double.compare(filter.falsePositiveRate(), p) != 0;
  }

  /** This identity with the filter resized to {@code newN} and {@code newP}. */
  public CrawlIdentity withFilter(long newN, double newP) {
    return new CrawlIdentity(newN, newP, confirm, generation);
  }
}
