package io.sievecrawl.crawler;

import crawlercommons.domains.EffectiveTldFinder;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Scope;
import io.sievecrawl.crawler.url.UrlNormalizer;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Decides whether a normalized URL belongs to the crawl: its host against the seeds (same host, same registrable
 * domain, or any), the include and exclude patterns, the depth limit and the spider-trap guards on the path.
 */
final class ScopePolicy {
  /** Why a URL is out of scope; the summary counts them by reason. */
  enum Reason { HOST, PATTERN, DEPTH, TRAP }

  private final Scope scope;
  private final Set<String> seedHosts = ConcurrentHashMap.newKeySet();
  private final Set<String> seedDomains = ConcurrentHashMap.newKeySet();
  private final List<Pattern> include;
  private final List<Pattern> exclude;
  private final int maxDepth;
  private final int maxPathSegments;
  private final int maxSegmentRepeats;

  /**
   * @param seedUrls the normalized seed URLs
   * @param moreSeedHosts hosts that count as seeds' too (brought into scope by seed redirects in an earlier run)
   */
  ScopePolicy(CrawlSettings settings, Collection<String> seedUrls, Collection<String> moreSeedHosts) {
    this.scope = settings.scope();
    this.include = settings.include();
    this.exclude = settings.exclude();
    this.maxDepth = settings.maxDepth();
    this.maxPathSegments = settings.maxPathSegments();
    this.maxSegmentRepeats = settings.maxSegmentRepeats();
    seedUrls.forEach(url -> addSeedHost(UrlNormalizer.hostOf(url)));
    moreSeedHosts.forEach(this::addSeedHost);
  }

  ScopePolicy(CrawlSettings settings, Collection<String> seedUrls) {
    this(settings, seedUrls, List.of());
  }

  /** The hosts that count as the seeds' now, for a resumed crawl. */
  Set<String> seedHosts() {
    return Set.copyOf(seedHosts);
  }

  /**
   * A seed that redirects to another host of its registrable domain ({@code example.com} to
   * {@code www.example.com}) brings that host into scope: that is where the user's site lives. A redirect to
   * another domain (a login or consent page elsewhere) does not.
   */
  void addSeedRedirect(String seed, String target) {
    String targetHost = UrlNormalizer.hostOf(target);
    if (registrableDomain(targetHost).equals(registrableDomain(UrlNormalizer.hostOf(seed)))) {
      addSeedHost(targetHost);
    }
  }

  private void addSeedHost(String host) {
    if (seedHosts.add(host)) {
      seedDomains.add(registrableDomain(host));
    }
  }

  /** {@code null} if {@code url} at {@code depth} may be crawled, otherwise why not. */
  Reason rejection(String url, int depth) {
    if (depth > maxDepth) {
      return Reason.DEPTH;
    }
    String host = UrlNormalizer.hostOf(url);
    boolean hostOk = switch (scope) {
      case HOST -> seedHosts.contains(host);
      case DOMAIN -> seedHosts.contains(host) || seedDomains.contains(registrableDomain(host));
      case ANY -> true;
    };
    if (!hostOk) {
      return Reason.HOST;
    }
    if (exclude.stream().anyMatch(p -> p.matcher(url).find())
        || (!include.isEmpty() && include.stream().noneMatch(p -> p.matcher(url).find()))) {
      return Reason.PATTERN;
    }
    return isTrap(UrlNormalizer.pathOf(url)) ? Reason.TRAP : null;
  }

  /** Too many path segments, or one segment repeated too often (/a/b/a/b/a/b/...). */
  private boolean isTrap(String path) {
    String[] segments = path.substring(1).split("/");
    if (segments.length > maxPathSegments) {
      return true;
    }
    if (segments.length <= maxSegmentRepeats) {
      return false;
    }
    Map<String, Integer> counts = new HashMap<>();
    for (String segment : segments) {
      if (!segment.isEmpty() && counts.merge(segment, 1, Integer::sum) > maxSegmentRepeats) {
        return true;
      }
    }
    return false;
  }

  /** The registrable domain (public-suffix aware), or the host itself for IP addresses and bare names. */
  static String registrableDomain(String host) {
    String domain = EffectiveTldFinder.getAssignedDomain(host, true, false);
    return domain == null || domain.isEmpty() ? host : domain;
  }
}
