package io.sievecrawl.config;

import static io.sievecrawl.config.ValueType.bool;
import static io.sievecrawl.config.ValueType.count;
import static io.sievecrawl.config.ValueType.duration;
import static io.sievecrawl.config.ValueType.headers;
import static io.sievecrawl.config.ValueType.integer;
import static io.sievecrawl.config.ValueType.patterns;
import static io.sievecrawl.config.ValueType.pins;
import static io.sievecrawl.config.ValueType.rate;
import static io.sievecrawl.config.ValueType.requiredText;
import static io.sievecrawl.config.ValueType.requisiteFetch;
import static io.sievecrawl.config.ValueType.scope;
import static io.sievecrawl.config.ValueType.size;
import static io.sievecrawl.config.ValueType.text;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Every setting of a crawl: its key in the config file, the type of its value (which parses, formats and checks it,
 * range included), its default and what it does. This table is the one place where keys and defaults live.
 *
 * @param <T> the Java type of the setting's value
 */
public final class Setting<T> {
  private static final List<Setting<?>> ALL = new ArrayList<>(); // filled by the constructor, in declaration order

  public static final Setting<Long> FILTER_N = new Setting<>("filter.n", count(1, 100_000_000_000L), "10M",
      "Expected number of distinct URLs the crawl will discover. Sizes the URL filter; past it the filter warns"
          + " and its false-positive rate climbs.");
  public static final Setting<Double> FILTER_P = new Setting<>("filter.p", rate(1e-10, 0.5), "0.001",
      "Target false-positive rate of the URL filter at filter.n URLs: the chance a new URL is wrongly taken for"
          + " one already seen, and skipped. In [1e-10, 0.5].");
  public static final Setting<Boolean> FILTER_CONFIRM = new Setting<>("filter.confirm", bool(), "true",
      "Keep an exact store of every URL admitted (8 bytes each on disk) and settle there each URL the filter takes"
          + " for seen, so that no new URL is lost to a false positive, even past filter.n; lets resume raise"
          + " filter.n. Fixed when the crawl is created; a shared crawl keeps its store in Redis.");
  public static final Setting<Boolean> FILTER_GROW = new Setting<>("filter.grow", bool(), "true",
      "With filter.confirm, when the filter's estimate passes filter.n, build a filter for twice the URLs seen from"
          + " the exact store in the background and switch to it, if the heap has room for both; the capacity"
          + " warning says which. Not for shared crawls.");

  public static final Setting<Integer> CONCURRENCY = new Setting<>("crawl.concurrency", integer(1, 10_000), "32",
      "Fetches in flight at once, over all hosts (each on its own virtual thread).");
  public static final Setting<Long> MAX_PAGES = new Setting<>("crawl.max-pages", count(0, Long.MAX_VALUE), "0",
      "Stop after this many fetches; 0 means no limit.");
  public static final Setting<Duration> MAX_TIME = new Setting<>("crawl.max-time",
      duration(Duration.ZERO, Duration.ofDays(366)), "0s",
      "Stop once this run of the crawl has lasted this long, as after Ctrl-C: fetches in flight finish and"
          + " 'sievecrawl resume' goes on, with the time counted anew; 0s means no limit.");
  public static final Setting<Integer> MAX_DEPTH = new Setting<>("crawl.max-depth", integer(0, 1_000_000), "50",
      "Follow links at most this many hops from a seed (0 fetches the seeds only). Also ends endless link chains"
          + " such as calendars.");
  public static final Setting<Long> MAX_PAGES_PER_HOST = new Setting<>("crawl.max-pages-per-host",
      count(0, Long.MAX_VALUE), "100k",
      "Fetch at most this many URLs from one host; 0 means no limit. A budget against spider traps.");
  public static final Setting<Boolean> ALLOW_PRIVATE_ADDRESSES = new Setting<>("crawl.allow-private-addresses",
      bool(), "false",
      "With crawl.scope = any, also follow links and redirects to loopback, private and link-local addresses (the"
          + " seeds' hosts may always be such). Off, a public page cannot lead the crawler into the local network.");
  public static final Setting<Integer> MAX_LINKS_PER_PAGE = new Setting<>("crawl.max-links-per-page",
      integer(1, 10_000_000), "10000",
      "Follow at most this many distinct links of one page (the first ones in the page); the rest are counted as"
          + " links-over-page-cap. Bounds the memory a hostile page can take.");
  public static final Setting<Scope> SCOPE = new Setting<>("crawl.scope", scope(), "host",
      "Which links to follow: host (the seeds' hosts), domain (the seeds' registrable domains, subdomains"
          + " included) or any.");
  public static final Setting<List<Pattern>> INCLUDE = new Setting<>("crawl.include", patterns(), "",
      "Space-separated regular expressions; when set, a URL must match one of them (searched anywhere in it).");
  public static final Setting<List<Pattern>> EXCLUDE = new Setting<>("crawl.exclude", patterns(), "",
      "Space-separated regular expressions; a URL matching any of them is not fetched.");

  public static final Setting<Duration> DELAY = new Setting<>("politeness.delay",
      duration(Duration.ZERO, Duration.ofHours(1)), "1s",
      "Least time between the starts of two requests to one origin (scheme, host, port): the floor of the adaptive"
          + " delay, or the fixed delay when politeness.adaptive is false. The --delay flag sets a fixed delay.");
  public static final Setting<Boolean> ADAPTIVE = new Setting<>("politeness.adaptive", bool(), "true",
      "Adapt each origin's delay to its server: response-time-factor times its last response time, between"
          + " politeness.delay and politeness.max-delay; doubled after a 429 or 503, eased back after successes."
          + " A robots.txt Crawl-delay still wins.");
  public static final Setting<Integer> RESPONSE_TIME_FACTOR = new Setting<>("politeness.response-time-factor",
      integer(1, 1_000), "5",
      "With adaptive politeness: wait this many times the origin's last response time before its next request.");
  public static final Setting<Duration> MAX_DELAY = new Setting<>("politeness.max-delay",
      duration(Duration.ZERO, Duration.ofHours(1)), "30s",
      "Ceiling of the adaptive delay and of the back-off after 429 and 503 (a Retry-After is honoured up to"
          + " fetch.max-retry-after).");
  public static final Setting<Integer> HOST_CONCURRENCY = new Setting<>("politeness.host-concurrency",
      integer(1, 1_000), "1",
      "Requests in flight at once to one origin (scheme, host, port).");
  public static final Setting<Duration> MAX_CRAWL_DELAY = new Setting<>("politeness.max-crawl-delay",
      duration(Duration.ZERO, Duration.ofHours(1)), "30s",
      "A robots.txt Crawl-delay is honoured up to this; a longer one is capped.");
  public static final Setting<Boolean> HONOR_NOFOLLOW = new Setting<>("politeness.honor-nofollow", bool(), "true",
      "Skip links marked rel=nofollow, and all links of pages whose meta robots or X-Robots-Tag says nofollow.");

  public static final Setting<Boolean> OBEY_ROBOTS = new Setting<>("robots.obey", bool(), "true",
      "Fetch and obey each host's robots.txt (RFC 9309).");
  public static final Setting<Boolean> FOLLOW_SITEMAPS = new Setting<>("robots.follow-sitemaps", bool(), "true",
      "Also fetch the sitemaps robots.txt lists (Sitemap: lines, with robots.obey; sitemap indexes, gzip and text"
          + " sitemaps too) and follow the URLs in them within crawl.scope, and those of the XML sitemaps and RSS or"
          + " Atom feeds that pages link. A listed sitemap and the URLs in it count as one hop from a seed. A seed"
          + " that is a sitemap is read whatever this says.");
  public static final Setting<Long> ROBOTS_CACHE_MEMORY = new Setting<>("robots.cache-memory",
      size(1_024, Integer.MAX_VALUE), "64MB",
      "Memory for parsed robots.txt rules, estimated from their size; the least recently used origins' rules are"
          + " dropped past it (and fetched again when needed).");
  public static final Setting<String> ROBOTS_AGENT = new Setting<>("robots.agent-name",
      text(false, TextRules::productToken), "",
      "The product token matched against robots.txt User-agent lines and <meta name=...> robots tags. Empty: the"
          + " first product token of the User-Agent that names a crawler (not Mozilla or compatible), else"
          + " sievecrawl.");
  public static final Setting<Duration> ROBOTS_RETRY = new Setting<>("robots.retry-after",
      duration(Duration.ofMillis(1), Duration.ofDays(1)), "30s",
      "When robots.txt answers 5xx or cannot be fetched, the host is not crawled for this long; then robots.txt"
          + " is fetched again (three attempts in all, then the host's URLs are skipped).");

  public static final Setting<String> USER_AGENT = new Setting<>("fetch.user-agent",
      requiredText(), "sievecrawl/" + Version.get(),
      "User-Agent header. fetch.contact, when set, is added to it.");
  public static final Setting<String> CONTACT = new Setting<>("fetch.contact", text(), "",
      "A URL or e-mail address where site owners can reach whoever runs the crawl, added to the User-Agent as"
          + " (+CONTACT). Empty: a warning at the start of a crawl of other people's sites.");
  public static final Setting<List<RequestHeader>> HEADER = new Setting<>("fetch.header", headers(), "",
      "An extra header sent with every request (robots.txt and sitemaps too), NAME: VALUE; repeat the key for more"
          + " headers (a header named again replaces the earlier one). Authorization and Cookie go only to the"
          + " seeds' origins (scheme, host, port) and over https to the seeds' sites, a Cookie joined with the"
          + " cookies sites set; their values are hidden in the log and the WARC files (warcinfo, and request records"
          + " unless warc.keep-credentials), but not in the crawl directory. Empty: none.");
  public static final Setting<Duration> CONNECT_TIMEOUT = new Setting<>("fetch.connect-timeout",
      duration(Duration.ofMillis(1), Duration.ofMinutes(10)), "10s",
      "Time allowed to open a connection.");
  public static final Setting<Duration> READ_TIMEOUT = new Setting<>("fetch.read-timeout",
      duration(Duration.ofMillis(1), Duration.ofMinutes(10)), "30s",
      "Time allowed between two reads of a response.");
  public static final Setting<Duration> CALL_TIMEOUT = new Setting<>("fetch.call-timeout",
      duration(Duration.ofMillis(1), Duration.ofHours(1)), "60s",
      "Time allowed for a whole request, body included: a server that trickles is cut off after it.");
  public static final Setting<Long> MAX_BODY_SIZE = new Setting<>("fetch.max-body-size",
      size(1_024, Integer.MAX_VALUE - 64), "10MB",
      "Largest body read, in bytes received; a longer one is cut off there, marked truncated, and a page still"
          + " yields the links in the part read (decoding a compressed page also stops at this size).");
  public static final Setting<Integer> MAX_REDIRECTS = new Setting<>("fetch.max-redirects", integer(0, 50), "5",
      "Redirect hops followed from one URL; each hop is a new URL, sieved and checked like a link.");
  public static final Setting<Integer> MAX_RETRIES = new Setting<>("fetch.max-retries", integer(0, 20), "2",
      "Retries after a 5xx, a 429 or a network error, with exponential backoff and jitter.");
  public static final Setting<Duration> RETRY_BACKOFF = new Setting<>("fetch.retry-backoff",
      duration(Duration.ofMillis(1), Duration.ofMinutes(10)), "1s",
      "Wait before the first retry; it doubles with every further retry (plus up to 50% jitter).");
  public static final Setting<Duration> MAX_RETRY_AFTER = new Setting<>("fetch.max-retry-after",
      duration(Duration.ZERO, Duration.ofDays(1)), "2m",
      "A Retry-After longer than this is not waited for: the URL is given up, and its origin rests this long.");
  public static final Setting<String> PROXY = new Setting<>("fetch.proxy", text(false, TextRules::proxy), "",
      "Proxy for every request, http://HOST[:PORT] (https URLs are tunnelled through it), or none. Empty: the"
          + " http_proxy and https_proxy environment variables, which may also hold USER:PASSWORD@, as curl and"
          + " wget read them. Hosts in no_proxy and loopback hosts are reached directly.");
  public static final Setting<String> CA_FILE = new Setting<>("fetch.ca-file", text(), "",
      "A PEM file of CA certificates to trust besides the JDK's, for sites signed by a private CA (curl's --cacert,"
          + " wget's --ca-certificate). Empty: the JDK's only.");
  public static final Setting<List<HostPin>> RESOLVE = new Setting<>("fetch.resolve", pins(), "",
      "Host names pinned to addresses, HOST:PORT:ADDRESS as curl's --resolve takes them (PORT may be *),"
          + " space-separated: the crawler connects to ADDRESS instead of asking DNS, for a staging copy of a site or"
          + " many sites served by one test server. A pin holds for the host on every port. Empty: DNS for all.");
  public static final Setting<Boolean> INSECURE_TLS = new Setting<>("fetch.insecure-tls", bool(), "false",
      "Accept any TLS certificate: self-signed, expired or for another host (curl's -k, wget's"
          + " --no-check-certificate). For test and intranet sites only; the crawl warns when it starts.");
  public static final Setting<Boolean> NATIVE_TLS = new Setting<>("fetch.native-tls", bool(), "true",
      "Speak TLS through BoringSSL (Conscrypt), which costs less CPU a page than the JDK's TLS, where its native"
          + " library loads (Linux and macOS on x86-64 and ARM, Windows on x86-64; the log says when it does not,"
          + " and the JDK's is used). false: the JDK's TLS always.");
  public static final Setting<Boolean> COOKIES = new Setting<>("fetch.cookies", bool(), "true",
      "Keep the cookies sites set and send them back, as a browser does: at most 50 per domain and 16 MB in all,"
          + " the least recently used domains' dropped first. Saved in the crawl directory for a resumed crawl;"
          + " agents of a shared crawl keep their own, in memory.");

  public static final Setting<Duration> FRONTIER_SYNC_INTERVAL = new Setting<>("frontier.sync-interval",
      duration(Duration.ofMillis(10), Duration.ofMinutes(10)), "1s",
      "How often the frontier log and the results file are forced to disk: a power cut loses at most about this"
          + " much of the latest work (a killed process loses nothing).");
  public static final Setting<Duration> FRONTIER_CHECKPOINT_INTERVAL = new Setting<>("frontier.checkpoint-interval",
      duration(Duration.ofSeconds(1), Duration.ofDays(1)), "5m",
      "How often the URL filter is written to the crawl directory; lets finished log segments be deleted and"
          + " bounds the log replayed on resume.");
  public static final Setting<Duration> LEASE_TTL = new Setting<>("frontier.lease-ttl",
      duration(Duration.ofSeconds(1), Duration.ofMinutes(10)), "10s",
      "Shared crawls (--redis): how long the origins of an agent that stopped renewing its lease (a dead one) wait"
          + " before other agents take them over; agents renew every third of it.");
  public static final Setting<Duration> REDIS_OUTAGE_GRACE = new Setting<>("frontier.redis-outage-grace",
      duration(Duration.ZERO, Duration.ofHours(1)), "60s",
      "Shared crawls (--redis): how long an agent rides out Redis being unreachable (a restart, a dropped"
          + " connection, Redis loading its data), its workers waiting while it retries with backoff; past it the"
          + " agent ends with exit 9, and 'sievecrawl join' continues the crawl once Redis is back. 0s gives up at"
          + " the first failure.");

  public static final Setting<String> WARC_DIR = new Setting<>("warc.dir", text(), "",
      "Write every HTTP exchange (pages, redirects, errors with a response, robots.txt) to WARC/1.1 files in this"
          + " directory; empty writes none. --warc DIR sets it.");
  public static final Setting<Long> WARC_MAX_SIZE = new Setting<>("warc.max-size",
      size(1_000_000, 1_000_000_000_000L), "1GB",
      "Start a new WARC file once the current one has reached this size (compressed).");
  public static final Setting<String> WARC_PREFIX = new Setting<>("warc.prefix",
      text(true, TextRules::fileNamePart), "sievecrawl",
      "WARC files are named PREFIX-TIMESTAMP-SERIAL.warc.gz; letters, digits, '.', '_' and '-'.");
  public static final Setting<Boolean> WARC_KEEP_CREDENTIALS = new Setting<>("warc.keep-credentials", bool(),
      "false", "Keep the values of the Authorization and Cookie headers sent in the WARC request records. Off, they"
          + " are masked (Authorization: SCHEME <hidden>, Cookie: NAME=<hidden>; ...), since WARC files and WACZ"
          + " packages are made to be shared.");
  public static final Setting<Long> WARC_DEDUP_DIGESTS = new Setting<>("warc.dedup-digests", count(0, 100_000_000),
      "50k",
      "Store an identical payload once: a 2xx response whose payload this run archived already (the same logo under"
          + " another URL, the same style sheet on every copy of a site) is written as an identical-payload-digest"
          + " revisit of the first capture. The payload digests remembered for it, about 250 bytes each on the heap,"
          + " the least recently met forgotten first; 0 writes every payload whole.");

  public static final Setting<RequisiteFetch> REQUISITES_FETCH = new Setting<>("requisites.fetch", requisiteFetch(),
      "auto",
      "Fetch each HTML page's requisites, what it needs to be shown: images (src, srcset), style sheets and the"
          + " url()s and @imports in them, scripts, icons, preloads, media, objects, embeds. auto: with WARC output"
          + " (warc.dir), so that the archive replays the pages as they looked; on; off. --requisites and"
          + " --no-requisites set it. Requisites are fetched once through the URL filter, under robots.txt and"
          + " each origin's politeness, ahead of the rest of their origin's queue; they are no link hop and are not"
          + " read for links, but a style sheet for its own requisites and an in-scope HTML page as a page.");
  public static final Setting<Scope> REQUISITES_SCOPE = new Setting<>("requisites.scope", scope(), "any",
      "Where a page's requisites may come from: any host (a CDN's too), the page's registrable domain (domain) or"
          + " its host (host). crawl.exclude applies to them, crawl.include and crawl.max-depth do not; local"
          + " addresses are refused unless crawl.allow-private-addresses. A requisite outside crawl.scope is asked"
          + " for without fetch.header headers and without cookies.");
  public static final Setting<Long> REQUISITES_MAX_BODY_SIZE = new Setting<>("requisites.max-body-size",
      size(1_024, Integer.MAX_VALUE - 64), "100MB",
      "Largest requisite body read, in bytes received (a video may be large); a longer one is cut off there and"
          + " marked truncated. A style sheet is read, for its own requisites, up to fetch.max-body-size.");

  public static final Setting<Boolean> RESULTS_TEXT = new Setting<>("results.text", bool(), "false",
      "Each HTML page's record carries its text as a browser shows it, as 'text': a line per block (paragraph,"
          + " heading, list item, table row), inline elements joined, white space collapsed; scripts, styles, noscript,"
          + " templates and hidden elements left out. --text sets it.");
  public static final Setting<Boolean> RESULTS_LINKS = new Setting<>("results.links", bool(), "false",
      "Each page's record carries the links found as 'links', normalized, each with why it was not followed"
          + " (seen, out-of-scope-host, ...) or null. --links sets it.");

  public static final Setting<Integer> MAX_URL_LENGTH = new Setting<>("traps.max-url-length",
      integer(16, 1_000_000), "2048",
      "URLs longer than this (after normalization) are dropped, as traps (too-long).");
  public static final Setting<Integer> MAX_PATH_SEGMENTS = new Setting<>("traps.max-path-segments",
      integer(1, 10_000), "32",
      "URLs with more path segments than this are dropped (ever-deeper paths).");
  public static final Setting<Integer> MAX_SEGMENT_REPEATS = new Setting<>("traps.max-segment-repeats",
      integer(1, 10_000), "3",
      "URLs in which one path segment occurs more than this many times are dropped (/a/b/a/b/a/b/...).");
  public static final Setting<Boolean> STRIP_SESSION_IDS = new Setting<>("traps.strip-session-ids", bool(), "true",
      "Remove session ids (jsessionid, PHPSESSID, ...; sid only when its value looks minted, not a number) from"
          + " URLs, so a site that mints a fresh id per visit is still crawled once. A redirect to the URL itself"
          + " with a session id is followed as sent.");

  public static final Setting<Duration> RECRAWL_AFTER = new Setting<>("recrawl.after",
      duration(Duration.ZERO, Duration.ofDays(3650)), "24h",
      "'sievecrawl recrawl' visits again the URLs last fetched longer ago than this (a conditional GET) and keeps"
          + " those fetched since as they were; 0s visits every one.");
  public static final Setting<Integer> RECRAWL_FORGET_AFTER = new Setting<>("recrawl.forget-after",
      integer(1, 1_000), "2",
      "A recrawl forgets a URL that answered 404 or 410 this many visits in a row: it is not visited again unless a"
          + " page links to it.");

  private final String key;
  private final ValueType<T> type;
  private final String defaultText;
  private final String description;

  private Setting(String key, ValueType<T> type, String defaultText, String description) {
    this.key = key;
    this.type = type;
    this.defaultText = defaultText;
    this.description = description;
    ALL.add(this);
  }

  /** Every setting, in the order of this table (and of config files, {@code describe()} and the docs). */
  public static List<Setting<?>> all() {
    return Collections.unmodifiableList(ALL);
  }

  /** The key as written in a config file, {@code section.name}. */
  public String key() {
    return key;
  }

  /** The section of the config file the key is in: {@code filter} for {@code filter.n}. */
  public String section() {
    return key.substring(0, key.indexOf('.'));
  }

  /** The type of the value, which parses, formats and checks it. */
  public ValueType<T> type() {
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

  /**
   * Whether the key may be given more than once, each time adding to its value (a list) rather than replacing it;
   * an empty value clears the list.
   */
  public boolean repeatable() {
    return type.repeatable();
  }

  /** The setting with this key, if any. */
  public static Optional<Setting<?>> forKey(String key) {
    return ALL.stream().filter(s -> s.key.equals(key)).findFirst();
  }

  /** The key closest to {@code unknown} by edit distance, for "did you mean" hints; empty when none is close. */
  public static Optional<String> closestKey(String unknown) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (Setting<?> s : ALL) {
      for (String candidate : List.of(s.key, s.key.substring(s.key.indexOf('.') + 1))) {
        int d = EditDistance.between(unknown.toLowerCase(Locale.ROOT), candidate);
        if (d < bestDistance) {
          bestDistance = d;
          best = s.key;
        }
      }
    }
    return bestDistance <= Math.max(2, unknown.length() / 3) ? Optional.of(best) : Optional.empty();
  }

  /**
   * Parses {@code text} into this setting's value and checks its range.
   *
   * @throws IllegalArgumentException naming the allowed form or range
   */
  public T parse(String text) {
    T value = type.parse(text);
    type.check(value);
    return value;
  }

  /**
   * {@code value}, set in code, as this setting's value once checked.
   *
   * @throws IllegalArgumentException naming the type it must be of, or the rule it breaks
   */
  T checked(Object value) {
    T typed = type.cast(value);
    type.check(typed);
    return typed;
  }

  /** The key. */
  @Override
  public String toString() {
    return key;
  }
}
