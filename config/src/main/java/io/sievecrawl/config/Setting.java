package io.sievecrawl.config;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Every setting of a crawl: its key in the config file, its type, its default, its allowed range and what it does.
 * This table is the one place where defaults live.
 */
public enum Setting {
  FILTER_N("filter.n", Type.COUNT, "10M", 1, 100_000_000_000L,
      "Expected number of distinct URLs the crawl will discover. Sizes the URL filter; past it the filter warns"
          + " and its false-positive rate climbs."),
  FILTER_P("filter.p", Type.RATE, "0.001", 0, 0,
      "Target false-positive rate of the URL filter at filter.n URLs: the chance a new URL is wrongly taken for"
          + " one already seen, and skipped. In [1e-10, 0.5]."),

  CONCURRENCY("crawl.concurrency", Type.INT, "32", 1, 10_000,
      "Fetches in flight at once, over all hosts (each on its own virtual thread)."),
  MAX_PAGES("crawl.max-pages", Type.COUNT, "0", 0, Long.MAX_VALUE,
      "Stop after this many fetches; 0 means no limit."),
  MAX_TIME("crawl.max-time", Type.DURATION, "0s", 0, Duration.ofDays(366).toMillis(),
      "Stop once this run of the crawl has lasted this long, as after Ctrl-C: fetches in flight finish and"
          + " 'sievecrawl resume' goes on, with the time counted anew; 0s means no limit."),
  MAX_DEPTH("crawl.max-depth", Type.INT, "50", 0, 1_000_000,
      "Follow links at most this many hops from a seed (0 fetches the seeds only). Also ends endless link chains"
          + " such as calendars."),
  MAX_PAGES_PER_HOST("crawl.max-pages-per-host", Type.COUNT, "100k", 0, Long.MAX_VALUE,
      "Fetch at most this many URLs from one host; 0 means no limit. A budget against spider traps."),
  ALLOW_PRIVATE_ADDRESSES("crawl.allow-private-addresses", Type.BOOLEAN, "false", 0, 0,
      "With crawl.scope = any, also follow links and redirects to loopback, private and link-local addresses (the"
          + " seeds' hosts may always be such). Off, a public page cannot lead the crawler into the local network."),
  MAX_LINKS_PER_PAGE("crawl.max-links-per-page", Type.INT, "10000", 1, 10_000_000,
      "Follow at most this many distinct links of one page (the first ones in the page); the rest are counted as"
          + " links-over-page-cap. Bounds the memory a hostile page can take."),
  SCOPE("crawl.scope", Type.SCOPE, "host", 0, 0,
      "Which links to follow: host (the seeds' hosts), domain (the seeds' registrable domains, subdomains"
          + " included) or any."),
  INCLUDE("crawl.include", Type.PATTERNS, "", 0, 0,
      "Space-separated regular expressions; when set, a URL must match one of them (searched anywhere in it)."),
  EXCLUDE("crawl.exclude", Type.PATTERNS, "", 0, 0,
      "Space-separated regular expressions; a URL matching any of them is not fetched."),

  DELAY("politeness.delay", Type.DURATION, "1s", 0, Duration.ofHours(1).toMillis(),
      "Least time between the starts of two requests to one origin (scheme, host, port): the floor of the adaptive"
          + " delay, or the fixed delay when politeness.adaptive is false. The --delay flag sets a fixed delay."),
  ADAPTIVE("politeness.adaptive", Type.BOOLEAN, "true", 0, 0,
      "Adapt each origin's delay to its server: response-time-factor times its last response time, between"
          + " politeness.delay and politeness.max-delay; doubled after a 429 or 503, eased back after successes."
          + " A robots.txt Crawl-delay still wins."),
  RESPONSE_TIME_FACTOR("politeness.response-time-factor", Type.INT, "5", 1, 1_000,
      "With adaptive politeness: wait this many times the origin's last response time before its next request."),
  MAX_DELAY("politeness.max-delay", Type.DURATION, "30s", 0, Duration.ofHours(1).toMillis(),
      "Ceiling of the adaptive delay and of the back-off after 429 and 503 (a Retry-After is honoured up to"
          + " fetch.max-retry-after)."),
  HOST_CONCURRENCY("politeness.host-concurrency", Type.INT, "1", 1, 1_000,
      "Requests in flight at once to one origin (scheme, host, port)."),
  MAX_CRAWL_DELAY("politeness.max-crawl-delay", Type.DURATION, "30s", 0, Duration.ofHours(1).toMillis(),
      "A robots.txt Crawl-delay is honoured up to this; a longer one is capped."),
  HONOR_NOFOLLOW("politeness.honor-nofollow", Type.BOOLEAN, "true", 0, 0,
      "Skip links marked rel=nofollow, and all links of pages whose meta robots or X-Robots-Tag says nofollow."),
  OBEY_ROBOTS("robots.obey", Type.BOOLEAN, "true", 0, 0,
      "Fetch and obey each host's robots.txt (RFC 9309)."),
  FOLLOW_SITEMAPS("robots.follow-sitemaps", Type.BOOLEAN, "true", 0, 0,
      "Also fetch the sitemaps robots.txt lists (Sitemap: lines, with robots.obey; sitemap indexes, gzip and text"
          + " sitemaps too) and follow the URLs in them within crawl.scope, and those of the XML sitemaps and RSS or"
          + " Atom feeds that pages link. A listed sitemap and the URLs in it count as one hop from a seed. A seed"
          + " that is a sitemap is read whatever this says."),
  ROBOTS_CACHE_MEMORY("robots.cache-memory", Type.SIZE, "64MB", 1_024, Integer.MAX_VALUE,
      "Memory for parsed robots.txt rules, estimated from their size; the least recently used origins' rules are"
          + " dropped past it (and fetched again when needed)."),
  ROBOTS_AGENT("robots.agent-name", Type.STRING, "", 0, 0,
      "The product token matched against robots.txt User-agent lines and <meta name=...> robots tags. Empty: the"
          + " first product token of the User-Agent that names a crawler (not Mozilla or compatible), else"
          + " sievecrawl."),
  ROBOTS_RETRY("robots.retry-after", Type.DURATION, "30s", 1, Duration.ofDays(1).toMillis(),
      "When robots.txt answers 5xx or cannot be fetched, the host is not crawled for this long; then robots.txt"
          + " is fetched again (three attempts in all, then the host's URLs are skipped)."),

  USER_AGENT("fetch.user-agent", Type.STRING, "sievecrawl/" + Version.get(), 1, 0,
      "User-Agent header. fetch.contact, when set, is added to it."),
  CONTACT("fetch.contact", Type.STRING, "", 0, 0,
      "A URL or e-mail address where site owners can reach whoever runs the crawl, added to the User-Agent as"
          + " (+CONTACT). Empty: a warning at the start of a crawl of other people's sites."),
  HEADER("fetch.header", Type.HEADER, "", 0, 0,
      "An extra header sent with every request (robots.txt and sitemaps too), NAME: VALUE; repeat the key for more"
          + " headers (a header named again replaces the earlier one). Authorization and Cookie go only to the"
          + " seeds' origins (scheme, host, port) and over https to the seeds' sites, a Cookie joined with the cookies sites set; their values are hidden in the log and the"
          + " WARC files' warcinfo, but not in the crawl directory. Empty: none."),
  CONNECT_TIMEOUT("fetch.connect-timeout", Type.DURATION, "10s", 1, Duration.ofMinutes(10).toMillis(),
      "Time allowed to open a connection."),
  READ_TIMEOUT("fetch.read-timeout", Type.DURATION, "30s", 1, Duration.ofMinutes(10).toMillis(),
      "Time allowed between two reads of a response."),
  CALL_TIMEOUT("fetch.call-timeout", Type.DURATION, "60s", 1, Duration.ofHours(1).toMillis(),
      "Time allowed for a whole request, body included: a server that trickles is cut off after it."),
  MAX_BODY_SIZE("fetch.max-body-size", Type.SIZE, "10MB", 1_024, Integer.MAX_VALUE - 64,
      "Largest body read, in bytes received; a longer one is cut off there, marked truncated, and a page still"
          + " yields the links in the part read (decoding a compressed page also stops at this size)."),
  MAX_REDIRECTS("fetch.max-redirects", Type.INT, "5", 0, 50,
      "Redirect hops followed from one URL; each hop is a new URL, sieved and checked like a link."),
  MAX_RETRIES("fetch.max-retries", Type.INT, "2", 0, 20,
      "Retries after a 5xx, a 429 or a network error, with exponential backoff and jitter."),
  RETRY_BACKOFF("fetch.retry-backoff", Type.DURATION, "1s", 1, Duration.ofMinutes(10).toMillis(),
      "Wait before the first retry; it doubles with every further retry (plus up to 50% jitter)."),
  MAX_RETRY_AFTER("fetch.max-retry-after", Type.DURATION, "2m", 0, Duration.ofDays(1).toMillis(),
      "A Retry-After longer than this is not waited for: the URL is given up, and its origin rests this long."),
  PROXY("fetch.proxy", Type.STRING, "", 0, 0,
      "Proxy for every request, http://HOST[:PORT] (https URLs are tunnelled through it), or none. Empty: the"
          + " http_proxy and https_proxy environment variables, which may also hold USER:PASSWORD@, as curl and"
          + " wget read them. Hosts in no_proxy and loopback hosts are reached directly."),
  CA_FILE("fetch.ca-file", Type.STRING, "", 0, 0,
      "A PEM file of CA certificates to trust besides the JDK's, for sites signed by a private CA (curl's --cacert,"
          + " wget's --ca-certificate). Empty: the JDK's only."),
  RESOLVE("fetch.resolve", Type.PINS, "", 0, 0,
      "Host names pinned to addresses, HOST:PORT:ADDRESS as curl's --resolve takes them (PORT may be *),"
          + " space-separated: the crawler connects to ADDRESS instead of asking DNS, for a staging copy of a site or"
          + " many sites served by one test server. A pin holds for the host on every port. Empty: DNS for all."),
  INSECURE_TLS("fetch.insecure-tls", Type.BOOLEAN, "false", 0, 0,
      "Accept any TLS certificate: self-signed, expired or for another host (curl's -k, wget's"
          + " --no-check-certificate). For test and intranet sites only; the crawl warns when it starts."),
  COOKIES("fetch.cookies", Type.BOOLEAN, "true", 0, 0,
      "Keep the cookies sites set and send them back, as a browser does: at most 50 per domain and 16 MB in all,"
          + " the least recently used domains' dropped first. Saved in the crawl directory for a resumed crawl;"
          + " agents of a shared crawl keep their own, in memory."),

  FRONTIER_SYNC_INTERVAL("frontier.sync-interval", Type.DURATION, "1s", 10, Duration.ofMinutes(10).toMillis(),
      "How often the frontier log and the results file are forced to disk: a power cut loses at most about this"
          + " much of the latest work (a killed process loses nothing)."),
  FRONTIER_CHECKPOINT_INTERVAL("frontier.checkpoint-interval", Type.DURATION, "5m", 1_000,
      Duration.ofDays(1).toMillis(),
      "How often the URL filter is written to the crawl directory; lets finished log segments be deleted and"
          + " bounds the log replayed on resume."),
  LEASE_TTL("frontier.lease-ttl", Type.DURATION, "10s", 1_000, Duration.ofMinutes(10).toMillis(),
      "Shared crawls (--redis): how long the origins of an agent that stopped renewing its lease (a dead one) wait"
          + " before other agents take them over; agents renew every third of it."),
  REDIS_OUTAGE_GRACE("frontier.redis-outage-grace", Type.DURATION, "60s", 0, Duration.ofHours(1).toMillis(),
      "Shared crawls (--redis): how long an agent rides out Redis being unreachable (a restart, a dropped"
          + " connection, Redis loading its data), its workers waiting while it retries with backoff; past it the"
          + " agent ends with exit 9, and 'sievecrawl join' continues the crawl once Redis is back. 0s gives up at"
          + " the first failure."),

  WARC_DIR("warc.dir", Type.STRING, "", 0, 0,
      "Write every HTTP exchange (pages, redirects, errors with a response, robots.txt) to WARC/1.1 files in this"
          + " directory; empty writes none. --warc DIR sets it."),
  WARC_MAX_SIZE("warc.max-size", Type.SIZE, "1GB", 1_000_000, 1_000_000_000_000L,
      "Start a new WARC file once the current one has reached this size (compressed)."),
  WARC_PREFIX("warc.prefix", Type.STRING, "sievecrawl", 1, 0,
      "WARC files are named PREFIX-TIMESTAMP-SERIAL.warc.gz; letters, digits, '.', '_' and '-'."),

  RESULTS_TEXT("results.text", Type.BOOLEAN, "false", 0, 0,
      "Each HTML page's record carries its visible text as 'text' (the body's text, scripts and styles left out,"
          + " white space collapsed). --text sets it."),
  RESULTS_LINKS("results.links", Type.BOOLEAN, "false", 0, 0,
      "Each page's record carries the links found as 'links', normalized, each with why it was not followed"
          + " (seen, out-of-scope-host, ...) or null. --links sets it."),

  MAX_URL_LENGTH("traps.max-url-length", Type.INT, "2048", 16, 1_000_000,
      "URLs longer than this (after normalization) are dropped, as traps (out-of-scope-trap)."),
  MAX_PATH_SEGMENTS("traps.max-path-segments", Type.INT, "32", 1, 10_000,
      "URLs with more path segments than this are dropped (ever-deeper paths)."),
  MAX_SEGMENT_REPEATS("traps.max-segment-repeats", Type.INT, "3", 1, 10_000,
      "URLs in which one path segment occurs more than this many times are dropped (/a/b/a/b/a/b/...)."),
  STRIP_SESSION_IDS("traps.strip-session-ids", Type.BOOLEAN, "true", 0, 0,
      "Remove session ids (jsessionid, PHPSESSID, ...; sid only when its value looks minted, not a number) from"
          + " URLs, so a site that mints a fresh id per visit is still crawled once. A redirect to the URL itself"
          + " with a session id is followed as sent.");

  /** The kind of value a setting takes. */
  public enum Type {
    COUNT("count, e.g. 10000000, 10M or 1e7"),
    INT("whole number"),
    RATE("rate, e.g. 0.01 or 1%"),
    DURATION("duration, e.g. 500ms, 10s, 2m"),
    SIZE("size, e.g. 512KB, 10MB"),
    BOOLEAN("true or false"),
    STRING("text"),
    SCOPE("host, domain or any"),
    PATTERNS("space-separated regular expressions"),
    HEADER(RequestHeader.FORM + "; the key may be repeated"),
    PINS("space-separated " + HostPin.FORM);

    private final String description;

    Type(String description) {
      this.description = description;
    }

    public String description() {
      return description;
    }
  }

  private final String key;
  private final Type type;
  private final String defaultText;
  private final long min;
  private final long max;
  private final String description;

  Setting(String key, Type type, String defaultText, long min, long max, String description) {
    this.key = key;
    this.type = type;
    this.defaultText = defaultText;
    this.min = min;
    this.max = max;
    this.description = description;
  }

  /**
   * Whether the key may be given more than once, each time adding to its value (a list) rather than replacing it;
   * an empty value clears the list.
   */
  public boolean repeatable() {
    return type == Type.HEADER;
  }

  /** The key as written in a config file, {@code section.name}. */
  /** The largest value allowed: a count, a size in bytes, or a duration in milliseconds. */
  public long max() {
    return max;
  }

  public String key() {
    return key;
  }

  public Type type() {
    return type;
  }

  /** The default, as written in a config file. */
  public String defaultText() {
    return defaultText;
  }

  /** What the setting does. */
  public String description() {
    return description;
  }

  /** The setting with this key, if any. */
  public static Optional<Setting> forKey(String key) {
    return Arrays.stream(values()).filter(s -> s.key.equals(key)).findFirst();
  }

  /** The key closest to {@code unknown} by edit distance, for "did you mean" hints; empty when none is close. */
  public static Optional<String> closestKey(String unknown) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (Setting s : values()) {
      for (String candidate : List.of(s.key, s.key.substring(s.key.indexOf('.') + 1))) {
        int d = editDistance(unknown.toLowerCase(Locale.ROOT), candidate);
        if (d < bestDistance) {
          bestDistance = d;
          best = s.key;
        }
      }
    }
    return bestDistance <= Math.max(2, unknown.length() / 3) ? Optional.of(best) : Optional.empty();
  }

  /**
   * Parses {@code text} into this setting's value type and checks its range.
   *
   * @throws IllegalArgumentException naming the allowed form or range
   */
  public Object parse(String text) {
    Object value = switch (type) {
      case COUNT -> Values.parseCount(text);
      case INT -> Values.parseCount(text);
      case RATE -> Values.parseRate(text);
      case DURATION -> Values.parseDuration(text);
      case SIZE -> Values.parseSize(text);
      case BOOLEAN -> Values.parseBoolean(text);
      case STRING -> text.trim();
      case SCOPE -> parseScope(text);
      case PATTERNS -> parsePatterns(text);
      case HEADER -> text.isBlank() ? List.of() : List.of(RequestHeader.parse(text));
      case PINS -> parsePins(text);
    };
    checkRange(value);
    return value instanceof Long l && type == Type.INT ? Math.toIntExact(l) : value;
  }

  /** The rule a value breaks, for a value of the right type, or empty when it is allowed. */
  void checkRange(Object value) {
    switch (type) {
      case COUNT, INT -> {
        long v = ((Number) value).longValue();
        if (v < min || v > max) {
          throw new IllegalArgumentException(rangeText(fmt(min), max == Long.MAX_VALUE ? null : fmt(max)));
        }
      }
      case DURATION -> {
        long ms = ((Duration) value).toMillis();
        if (ms < min || ms > max) {
          throw new IllegalArgumentException(rangeText(Values.formatDuration(Duration.ofMillis(min)),
              Values.formatDuration(Duration.ofMillis(max))));
        }
      }
      case SIZE -> {
        long bytes = (Long) value;
        if (bytes < min || bytes > max) {
          throw new IllegalArgumentException(rangeText(Values.formatSize(min), Values.formatSize(max)));
        }
      }
      case RATE -> {
        double p = (Double) value;
        if (!(p >= 1e-10 && p <= 0.5)) {
          throw new IllegalArgumentException("must be between 1e-10 and 0.5");
        }
      }
      case STRING -> {
        String s = (String) value;
        if (s.isEmpty() && min > 0) {
          throw new IllegalArgumentException("must not be empty");
        }
        if (s.chars().anyMatch(c -> c < 0x20 || c > 0x7e)) {
          throw new IllegalArgumentException("must be printable ASCII");
        }
        if (this == WARC_PREFIX && !s.matches("[A-Za-z0-9._-]+")) {
          throw new IllegalArgumentException("must be letters, digits, '.', '_' and '-'");
        }
        if (this == PROXY && !s.isEmpty() && !s.equalsIgnoreCase("none")) {
          ProxyUrl proxy;
          try {
            proxy = ProxyUrl.parse(s);
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("must be empty, none or " + e.getMessage());
          }
          if (proxy.user() != null) {
            throw new IllegalArgumentException("must not hold a user or password, as settings are recorded in the"
                + " crawl directory and WARC files: give them in the https_proxy or http_proxy environment variable");
          }
        }
        if (this == ROBOTS_AGENT && !s.isEmpty() && !s.matches("[A-Za-z_-]+")) {
          throw new IllegalArgumentException("must be a product token of letters, '_' and '-' (RFC 9309)");
        }
      }
      case HEADER -> {
        if (!((List<?>) value).stream().allMatch(RequestHeader.class::isInstance)) {
          throw new IllegalArgumentException("must be a list of request headers");
        }
      }
      default -> { }
    }
  }

  private static String fmt(long v) {
    return v >= 1_000_000 ? Values.formatCount(v) : String.format(Locale.ROOT, "%,d", v);
  }

  private static String rangeText(String low, String high) {
    return high == null ? "must be at least " + low : "must be between " + low + " and " + high;
  }

  private static Scope parseScope(String text) {
    try {
      return Scope.valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("must be host, domain or any");
    }
  }

  private static List<HostPin> parsePins(String text) {
    String t = text.trim();
    if (t.isEmpty()) {
      return List.of();
    }
    List<HostPin> pins = Arrays.stream(t.split("\\s+")).map(HostPin::parse).toList();
    java.util.Map<String, String> addressOf = new java.util.HashMap<>();
    for (HostPin pin : pins) {
      String other = addressOf.putIfAbsent(pin.host(), pin.address());
      if (other != null && !other.equals(pin.address())) {
        throw new IllegalArgumentException(pin.host() + " is pinned to " + other + " and to " + pin.address()
            + "; a pin holds for every port, so one host takes one address");
      }
    }
    return pins;
  }

  private static List<Pattern> parsePatterns(String text) {
    String t = text.trim();
    if (t.isEmpty()) {
      return List.of();
    }
    return Arrays.stream(t.split("\\s+")).map(regex -> {
      try {
        return Pattern.compile(regex);
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException("invalid regular expression '" + regex + "': " + e.getDescription());
      }
    }).toList();
  }

  private static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
