package io.sievecrawl.crawler.scope;

import crawlercommons.domains.EffectiveTldFinder;
import io.sievecrawl.config.CrawlLimits;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Scope;
import io.sievecrawl.crawler.fetch.PrivateAddresses;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.crawler.url.Url;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Decides whether a normalized URL belongs to the crawl: its site against the seeds' (same host, same registrable
 * domain, or any), local addresses, the include and exclude patterns, the depth limit and the spider-trap guards on
 * the path.
 *
 * <p>A <em>site</em> is a host and a port: {@code example.com} for the default ports (http on 80, https on 443, so
 * a site that moves to https stays in scope) and {@code example.com:8080} for any other port, which is another
 * server. {@code host} scope keeps to the seeds' sites; {@code domain} scope to the seeds' registrable domains, on
 * the default ports or the seeds' own ports.
 */
public final class ScopePolicy {
  private static final String HTTPS = "https://";

  private final Scope scope;
  private final Set<String> seedSites = ConcurrentHashMap.newKeySet();
  private final Set<String> seedHosts = ConcurrentHashMap.newKeySet();
  private final Set<String> seedOrigins = ConcurrentHashMap.newKeySet();
  private final Set<String> seedDomains = ConcurrentHashMap.newKeySet();
  private final Set<String> seedPorts = ConcurrentHashMap.newKeySet();
  private final List<Pattern> include;
  private final List<Pattern> exclude;
  private final int maxDepth;
  private final int maxPathSegments;
  private final int maxSegmentRepeats;
  private final boolean allowLocal;
  private volatile java.util.function.Consumer<String> onNewSite = site -> { };

  /**
   * @param seedUrls the normalized seed URLs
   * @param moreSeedSites sites that count as the seeds' too (brought into scope by seed redirects in an earlier run)
   */
  public ScopePolicy(CrawlSettings settings, Collection<Url> seedUrls, Collection<String> moreSeedSites) {
    CrawlLimits crawl = settings.crawl();
    this.scope = crawl.scope();
    this.include = crawl.include();
    this.exclude = crawl.exclude();
    this.maxDepth = crawl.maxDepth();
    this.maxPathSegments = settings.traps().maxPathSegments();
    this.maxSegmentRepeats = settings.traps().maxSegmentRepeats();
    this.allowLocal = crawl.allowPrivateAddresses();
    seedUrls.forEach(this::addSeed);
    moreSeedSites.forEach(this::addSeedSite);
  }

  public ScopePolicy(CrawlSettings settings, Collection<Url> seedUrls) {
    this(settings, seedUrls, List.of());
  }

  /** Runs {@code listener} for every site a seed redirect brings into scope from now on (to share it). */
  public void onNewSite(java.util.function.Consumer<String> listener) {
    this.onNewSite = listener;
  }

  /** Adds a seed URL: its origin takes credentials, its site is in scope. Returns whether its site is new. */
  public boolean addSeed(Url seed) {
    seedOrigins.add(seed.origin());
    String site = siteOf(seed);
    if (seedSites.contains(site)) {
      return false;
    }
    addSeedSite(site);
    return true;
  }

  /** Adds sites that count as the seeds' (shared by other agents of the crawl). */
  public void addSites(Collection<String> sites) {
    sites.forEach(this::addSeedSite);
  }

  /**
   * Whether requests to {@code origin} ({@code scheme://host[:port]}, default ports left out) may carry the user's
   * credentials: to a seed's own origin, and over https to any site of the seeds (a seed's host and port, or one a
   * seed redirect brought in). Never over http to a site whose seed was https, and never to another port of a seed's
   * host: that is another server (curl's rule, CVE-2022-27776).
   */
  public boolean takesCredentials(String origin) {
    return seedOrigins.contains(origin)
        || (origin.startsWith(HTTPS) && seedSites.contains(origin.substring(HTTPS.length())));
  }

  /** The sites that count as the seeds' now, for a resumed crawl. */
  public Set<String> seedSites() {
    return Set.copyOf(seedSites);
  }

  /**
   * A seed that redirects to another host of its registrable domain ({@code example.com} to
   * {@code www.example.com}) brings that site into scope: that is where the user's site lives. A redirect to
   * another domain (a login or consent page elsewhere) does not.
   */
  public void addSeedRedirect(Url seed, Url target) {
    if (registrableDomain(target.host()).equals(registrableDomain(seed.host()))) {
      String site = siteOf(target);
      if (!seedSites.contains(site)) {
        addSeedSite(site);
        onNewSite.accept(site);
      }
    }
  }

  private void addSeedSite(String site) {
    if (seedSites.add(site)) {
      int colon = site.lastIndexOf(':');
      boolean hasPort = colon > site.lastIndexOf(']');
      String host = hasPort ? site.substring(0, colon) : site;
      seedHosts.add(host);
      if (scope == Scope.DOMAIN) { // loading the public suffix list costs about 0.1 s: only where it is needed
        seedDomains.add(registrableDomain(host));
      }
      if (hasPort) {
        seedPorts.add(site.substring(colon + 1));
      }
    }
  }

  /** {@code null} if {@code url} at {@code depth} may be crawled, otherwise why not (an {@code OUT_OF_SCOPE_...}). */
  public SkipReason rejection(Url url, int depth) {
    if (depth > maxDepth) {
      return SkipReason.OUT_OF_SCOPE_DEPTH;
    }
    if (!coversSiteOf(url)) {
      return SkipReason.OUT_OF_SCOPE_HOST;
    }
    String host = url.host();
    if (scope == Scope.ANY && !allowLocal && !seedHosts.contains(host) && PrivateAddresses.isLocalLiteral(host)) {
      return SkipReason.OUT_OF_SCOPE_PRIVATE; // a public page cannot lead into the local network (host names: at resolution)
    }
    String canonical = url.toString();
    if (matchesAny(exclude, canonical) || (!include.isEmpty() && !matchesAny(include, canonical))) {
      return SkipReason.OUT_OF_SCOPE_PATTERN;
    }
    return isTrap(url) ? SkipReason.OUT_OF_SCOPE_TRAP : null;
  }

  /** Whether the site of {@code url} is in scope: a seed's (crawl.scope host), of a seed's domain, or any. */
  public boolean coversSiteOf(Url url) {
    if (scope == Scope.ANY) {
      return true;
    }
    String site = siteOf(url);
    if (seedSites.contains(site)) {
      return true;
    }
    String host = url.host();
    return scope == Scope.DOMAIN && seedDomains.contains(registrableDomain(host))
        && (site.equals(host) || seedPorts.contains(site.substring(site.lastIndexOf(':') + 1)));
  }

  /**
   * Why a page's requisite {@code url} may not be fetched, whatever crawl.scope says of its site: a local address
   * (unless crawl.allow-private-addresses, or a host the crawl's scope covers), crawl.exclude, a trap guard; null if
   * it may.
   */
  SkipReason requisiteRejection(Url url) {
    String host = url.host();
    if (!allowLocal && PrivateAddresses.isLocalLiteral(host) && !mayBeLocal(host)) {
      return SkipReason.OUT_OF_SCOPE_PRIVATE;
    }
    if (matchesAny(exclude, url.toString())) {
      return SkipReason.OUT_OF_SCOPE_PATTERN;
    }
    return isTrap(url) ? SkipReason.OUT_OF_SCOPE_TRAP : null;
  }

  /**
   * Whether {@code host} may resolve to a local address although a public page led to it: a seed's host, or one
   * crawl.scope covers (under scope domain, a host of a seed's registrable domain).
   */
  public boolean mayBeLocal(String host) {
    return seedHosts.contains(host) || scope == Scope.DOMAIN && seedDomains.contains(registrableDomain(host));
  }

  /** Whether {@code url} is one the include patterns let in (every URL when there are none). */
  public boolean included(Url url) {
    return include.isEmpty() || matchesAny(include, url.toString());
  }

  private static boolean matchesAny(List<Pattern> patterns, String url) {
    for (Pattern pattern : patterns) { // a loop, not a stream: this runs for every link found
      if (pattern.matcher(url).find()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The site of a URL: its host, plus {@code :port} when the port is not its scheme's default (its origin names a
   * port only then).
   */
  public static String siteOf(Url url) {
    String origin = url.origin();
    int hostStart = url.scheme().length() + 3;
    return origin.length() == hostStart + url.host().length() ? url.host() : origin.substring(hostStart);
  }

  /**
   * Too many path segments (a trailing slash adds none), or one non-empty segment repeated too often
   * (/a/b/a/b/a/b/...). Runs for every link a page offers, so the path is read in place in the URL's string, and its
   * segments compared in place, which for the short paths of nearly every URL costs less than splitting the path and
   * counting in a map; long paths are counted in a map.
   */
  private boolean isTrap(Url url) {
    String s = url.toString();
    int from = url.origin().length(); // the path is s[from, to): it starts with '/'
    int to = url.pathEnd();
    int end = to;
    while (end > from + 1 && s.charAt(end - 1) == '/') {
      end--;
    }
    int segments = 1;
    for (int i = from + 1; i < end; i++) {
      if (s.charAt(i) == '/') {
        segments++;
      }
    }
    if (segments > maxPathSegments) {
      return true;
    }
    if (segments <= maxSegmentRepeats) {
      return false;
    }
    return segments <= 64 ? repeatsInPlace(s, from, to) : repeatsCounted(s.substring(from, to));
  }

  /**
   * Whether a non-empty segment of the path {@code s[from, to)} occurs more than maxSegmentRepeats times. The
   * segments' bounds are found in one pass, then compared pairwise, by length first, and a segment is only counted
   * while enough segments follow it to repeat it too often.
   */
  private boolean repeatsInPlace(String s, int from, int to) {
    int[] starts = new int[65]; // at most 64 segments before a trailing run of slashes, and the empty ones after
    int count = 0;
    for (int start = from + 1; start <= to; count++) {
      if (count == starts.length) {
        return repeatsCounted(s.substring(from, to));
      }
      starts[count] = start;
      int slash = s.indexOf('/', start, to);
      start = (slash < 0 ? to : slash) + 1;
    }
    for (int i = 0; count - i > maxSegmentRepeats; i++) {
      int start = starts[i];
      int length = (i + 1 < count ? starts[i + 1] - 1 : to) - start;
      if (length == 0) {
        continue;
      }
      int times = 1;
      for (int j = i + 1; j < count; j++) {
        int other = starts[j];
        int otherLength = (j + 1 < count ? starts[j + 1] - 1 : to) - other;
        if (otherLength == length && s.regionMatches(other, s, start, length) && ++times > maxSegmentRepeats) {
          return true;
        }
      }
    }
    return false;
  }

  private boolean repeatsCounted(String path) {
    Map<String, Integer> counts = new HashMap<>();
    for (String segment : path.substring(1).split("/")) {
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
