package io.sievecrawl.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The settings of one crawl: immutable, complete (every {@link Setting} has a value) and valid.
 *
 * <p>Read them by section ({@link #fetch()}, {@link #politeness()}, ...), one record per section of the config file,
 * or one at a time with {@link #get}. Build with {@link #builder()}; a setting left unset takes its default from
 * {@link Setting}. {@link Builder#build()} checks every value at once and reports all problems together in a
 * {@link SettingsException}.
 */
public final class CrawlSettings {
  private final Map<Setting<?>, Object> values; // each of its setting's type, checked by build()
  private final Map<Setting<?>, String> origins;
  private final Map<String, String> headerOrigins; // by lower-cased header name: fetch.header's lines have their own

  private CrawlSettings(Map<Setting<?>, Object> values, Map<Setting<?>, String> origins,
      Map<String, String> headerOrigins) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    this.origins = Collections.unmodifiableMap(new HashMap<>(origins));
    this.headerOrigins = Map.copyOf(headerOrigins);
  }

  /** Every setting at its default. */
  public static CrawlSettings defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these settings, to derive a variant. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.values.putAll(values);
    b.origins.putAll(origins);
    b.headerOrigins.putAll(headerOrigins);
    return b;
  }

  /** The value of {@code setting}. */
  public <T> T get(Setting<T> setting) {
    return setting.type().cast(values.get(setting));
  }

  /** Where the value of {@code setting} came from: {@code "default"}, a file and line, or a flag. */
  public String origin(Setting<?> setting) {
    return origins.getOrDefault(setting, "default");
  }

  /**
   * One line per setting, {@code key = value    # where it came from}, and for a value not from the defaults whether
   * it differs from the default ({@code # config.conf, default 10M} or {@code # config.conf, as the default}): a
   * config file that loads back to these settings (a {@code #} after white space starts a comment).
   */
  public List<String> describe() {
    CrawlSettings defaults = builder().build();
    List<String> lines = new ArrayList<>();
    for (Setting<?> s : Setting.all()) {
      List<String> values = configValues(s, true);
      List<String> defaultValues = defaults.configValues(s, true);
      String sameness = origin(s).equals("default") ? ""
          : values.equals(defaultValues) ? ", as the default" : ", default " + String.join(" ", defaultValues);
      for (int i = 0; i < values.size(); i++) {
        lines.add(s.key() + " = " + values.get(i) + "    # " + originOf(s, i) + sameness);
      }
    }
    return lines;
  }

  /** Where the {@code i}th value of {@code s} came from: each header of fetch.header has its own origin. */
  private String originOf(Setting<?> s, int i) {
    List<RequestHeader> headers = headers();
    return s == Setting.HEADER && i < headers.size()
        ? headerOrigins.getOrDefault(lowerName(headers.get(i)), origin(s)) : origin(s);
  }

  /**
   * The settings as a config file that {@link ConfigFile} reads back to equal settings: one {@code key = value} line
   * per setting (per header for {@code fetch.header}), text values in double quotes.
   */
  public String toConfigText() {
    StringBuilder text = new StringBuilder();
    for (Setting<?> s : Setting.all()) {
      for (String value : configValues(s, false)) {
        text.append(s.key()).append(" = ").append(value).append('\n');
      }
    }
    return text.toString();
  }

  /**
   * Every setting's key with its values as {@link #describe()} shows them (credentials hidden), one value per
   * setting except for a repeatable one: for records of a crawl that others may read (WARC files).
   */
  public Map<String, List<String>> shownValues() {
    Map<String, List<String>> shown = new LinkedHashMap<>();
    for (Setting<?> s : Setting.all()) {
      shown.put(s.key(), configValues(s, true));
    }
    return shown;
  }

  /**
   * The value of {@code s} as a config file holds it, exactly: text in double quotes, sizes to the byte; a line per
   * header ({@code ""} for none), credentials hidden when {@code hide} is true.
   */
  private <T> List<String> configValues(Setting<T> s, boolean hide) {
    return s.type().configValues(get(s), hide);
  }

  public long expectedUrls() {
    return get(Setting.FILTER_N);
  }

  public double fpp() {
    return get(Setting.FILTER_P);
  }

  public int concurrency() {
    return get(Setting.CONCURRENCY);
  }

  /** 0 means no limit. */
  public long maxPages() {
    return get(Setting.MAX_PAGES);
  }

  /** The longest a run of the crawl may last; zero for no limit. */
  public Duration maxTime() {
    return get(Setting.MAX_TIME);
  }

  public int maxDepth() {
    return get(Setting.MAX_DEPTH);
  }

  /** 0 means no limit. */
  public long maxPagesPerHost() {
    return get(Setting.MAX_PAGES_PER_HOST);
  }

  public Scope scope() {
    return get(Setting.SCOPE);
  }

  public List<Pattern> include() {
    return get(Setting.INCLUDE);
  }

  public List<Pattern> exclude() {
    return get(Setting.EXCLUDE);
  }

  public Duration delay() {
    return get(Setting.DELAY);
  }

  public boolean adaptiveDelay() {
    return get(Setting.ADAPTIVE);
  }

  public int responseTimeFactor() {
    return get(Setting.RESPONSE_TIME_FACTOR);
  }

  public Duration maxDelay() {
    return get(Setting.MAX_DELAY);
  }

  public boolean allowPrivateAddresses() {
    return get(Setting.ALLOW_PRIVATE_ADDRESSES);
  }

  public int hostConcurrency() {
    return get(Setting.HOST_CONCURRENCY);
  }

  public Duration maxCrawlDelay() {
    return get(Setting.MAX_CRAWL_DELAY);
  }

  public boolean honorNofollow() {
    return get(Setting.HONOR_NOFOLLOW);
  }

  public boolean obeyRobots() {
    return get(Setting.OBEY_ROBOTS);
  }

  public boolean followSitemaps() {
    return get(Setting.FOLLOW_SITEMAPS);
  }

  /** Bytes. */
  public long robotsCacheMemory() {
    return get(Setting.ROBOTS_CACHE_MEMORY);
  }

  public int maxLinksPerPage() {
    return get(Setting.MAX_LINKS_PER_PAGE);
  }

  public Duration frontierSyncInterval() {
    return get(Setting.FRONTIER_SYNC_INTERVAL);
  }

  public Duration leaseTtl() {
    return get(Setting.LEASE_TTL);
  }

  public Duration redisOutageGrace() {
    return get(Setting.REDIS_OUTAGE_GRACE);
  }

  public Duration frontierCheckpointInterval() {
    return get(Setting.FRONTIER_CHECKPOINT_INTERVAL);
  }

  public Duration robotsRetry() {
    return get(Setting.ROBOTS_RETRY);
  }

  public String userAgent() {
    return get(Setting.USER_AGENT);
  }

  /** The contact address for the User-Agent, or the empty string. */
  public String contact() {
    return get(Setting.CONTACT);
  }

  /** The User-Agent header sent: {@code fetch.user-agent}, with {@code (+fetch.contact)} when a contact is set. */
  public String userAgentHeader() {
    String contact = contact();
    String agent = userAgent();
    return contact.isEmpty() || agent.contains(contact) ? agent : agent + " (+" + contact + ")";
  }

  /** The product token robots.txt groups are matched against; see {@link Setting#ROBOTS_AGENT}. */
  public String robotsAgentName() {
    String configured = get(Setting.ROBOTS_AGENT);
    if (!configured.isEmpty()) {
      return configured.toLowerCase(Locale.ROOT);
    }
    for (String word : userAgent().split("[\\s;()]+")) {
      String token = word.split("/", 2)[0];
      String lower = token.toLowerCase(Locale.ROOT);
      if (token.matches("[A-Za-z_-]+") && !lower.equals("mozilla") && !lower.equals("compatible")) {
        return lower;
      }
    }
    return "sievecrawl";
  }

  public Duration connectTimeout() {
    return get(Setting.CONNECT_TIMEOUT);
  }

  public Duration readTimeout() {
    return get(Setting.READ_TIMEOUT);
  }

  public Duration callTimeout() {
    return get(Setting.CALL_TIMEOUT);
  }

  /** The directory WARC files go to; empty when none are written. */
  public String warcDir() {
    return get(Setting.WARC_DIR);
  }

  public long warcMaxSize() {
    return get(Setting.WARC_MAX_SIZE);
  }

  public String warcPrefix() {
    return get(Setting.WARC_PREFIX);
  }

  /** results.text: HTML pages' records carry their visible text. */
  public boolean recordText() {
    return get(Setting.RESULTS_TEXT);
  }

  /** results.links: pages' records carry the links found and why each was not followed. */
  public boolean recordLinks() {
    return get(Setting.RESULTS_LINKS);
  }

  public long maxBodySize() {
    return get(Setting.MAX_BODY_SIZE);
  }

  public int maxRedirects() {
    return get(Setting.MAX_REDIRECTS);
  }

  public int maxRetries() {
    return get(Setting.MAX_RETRIES);
  }

  public Duration retryBackoff() {
    return get(Setting.RETRY_BACKOFF);
  }

  public Duration maxRetryAfter() {
    return get(Setting.MAX_RETRY_AFTER);
  }

  /** fetch.proxy: empty (the environment's proxies), {@code none}, or an HTTP proxy URL without credentials. */
  public String proxy() {
    return get(Setting.PROXY);
  }

  /** The PEM file of extra CA certificates to trust (fetch.ca-file), or the empty string. */
  public String caFile() {
    return get(Setting.CA_FILE);
  }

  /** Whether any TLS certificate is accepted (fetch.insecure-tls). */
  public boolean insecureTls() {
    return get(Setting.INSECURE_TLS);
  }

  /** Whether the crawl keeps the cookies sites set and sends them back (fetch.cookies). */
  public boolean cookies() {
    return get(Setting.COOKIES);
  }

  /** fetch.resolve: host names pinned to addresses. */
  public List<HostPin> pins() {
    return get(Setting.RESOLVE);
  }

  /** The extra headers every request carries (fetch.header), in the order given. */
  public List<RequestHeader> headers() {
    return get(Setting.HEADER);
  }

  private static String lowerName(RequestHeader header) {
    return header.name().toLowerCase(Locale.ROOT);
  }

  public int maxUrlLength() {
    return get(Setting.MAX_URL_LENGTH);
  }

  public int maxPathSegments() {
    return get(Setting.MAX_PATH_SEGMENTS);
  }

  public int maxSegmentRepeats() {
    return get(Setting.MAX_SEGMENT_REPEATS);
  }

  public boolean stripSessionIds() {
    return get(Setting.STRIP_SESSION_IDS);
  }

  @Override
  public String toString() {
    return String.join("\n", describe());
  }

  /** Collects values and their origins; {@link #build()} validates them all at once. */
  public static final class Builder {
    private final Map<Setting<?>, Object> values = new HashMap<>();
    private final Map<Setting<?>, String> origins = new HashMap<>();
    private final Map<Setting<?>, String> rawTexts = new HashMap<>();
    private final Map<String, String> headerOrigins = new HashMap<>();
    private final List<Problem> problems = new ArrayList<>();

    /** File problems by file and line, then the rest (flags, code) in the order they were found. */
    private static final Comparator<Problem> IN_SOURCE_ORDER = Comparator
        .comparing((Problem p) -> lineOf(p.origin()) < 0)
        .thenComparing(p -> p.origin().substring(0, Math.max(0, p.origin().lastIndexOf(':'))))
        .thenComparingInt(p -> lineOf(p.origin()));

    private Builder() {}

    private static int lineOf(String origin) {
      int colon = origin.lastIndexOf(':');
      String tail = colon < 0 ? "" : origin.substring(colon + 1);
      return !tail.isEmpty() && tail.chars().allMatch(Character::isDigit) && tail.length() < 10
          ? Integer.parseInt(tail) : -1;
    }

    /**
     * Sets {@code setting} from its text form, as written in a config file or on the command line; a value that
     * does not parse is reported by {@link #build()}, with {@code origin} ({@code "crawl.conf:12"},
     * {@code "--delay"}). A repeatable setting (fetch.header) adds the value to those given before.
     */
    public Builder parse(Setting<?> setting, String text, String origin) {
      rawTexts.put(setting, text);
      origins.put(setting, origin);
      try {
        values.put(setting, setting == Setting.HEADER ? added(Setting.HEADER.parse(text), origin) : setting.parse(text));
      } catch (IllegalArgumentException e) {
        values.remove(setting);
        problems.add(new Problem(origin, setting.key(), text, e.getMessage()));
      }
      return this;
    }

    /**
     * The headers fetch.header holds once {@code more} (a list of one header, or none) is added to them: a header
     * replaces one of the same name, and an empty value clears the list.
     */
    private List<RequestHeader> added(List<RequestHeader> more, String origin) {
      if (more.isEmpty()) {
        headerOrigins.clear();
        return List.of();
      }
      List<RequestHeader> merged = new ArrayList<>(Setting.HEADER.type().cast(
          values.getOrDefault(Setting.HEADER, List.of())));
      for (RequestHeader header : more) {
        merged.removeIf(header::sameName);
        merged.add(header);
        headerOrigins.put(lowerName(header), origin);
      }
      return List.copyOf(merged);
    }

    /** Sets {@code setting} to a value; {@link #build()} checks its range. */
    public <T> Builder set(Setting<T> setting, T value) {
      Objects.requireNonNull(value, setting.key());
      values.put(setting, value);
      origins.put(setting, "code");
      if (setting == Setting.HEADER) {
        headerOrigins.clear();
      }
      rawTexts.remove(setting);
      return this;
    }

    /** Records a problem found by the caller (for example, an unknown key in a config file). */
    public Builder problem(Problem problem) {
      problems.add(problem);
      return this;
    }

    /**
     * The settings, defaults filled in.
     *
     * @throws SettingsException listing every problem: values that did not parse, are of the wrong type or out
     *     of range, and problems recorded with {@link #problem}
     */
    public CrawlSettings build() {
      List<Problem> all = new ArrayList<>(problems);
      Map<Setting<?>, Object> complete = new LinkedHashMap<>();
      for (Setting<?> s : Setting.all()) {
        if (values.containsKey(s)) {
          Object value = values.get(s);
          try {
            complete.put(s, s.checked(value));
          } catch (IllegalArgumentException e) {
            String text = rawTexts.getOrDefault(s, s.type().textOf(value));
            all.add(new Problem(origins.getOrDefault(s, ""), s.key(), text, e.getMessage()));
          }
        } else if (!rawTexts.containsKey(s)) {
          complete.put(s, s.parse(s.defaultText()));
        }
      }
      if (!all.isEmpty()) {
        all.sort(IN_SOURCE_ORDER);
        throw new SettingsException(all);
      }
      return new CrawlSettings(complete, origins, headerOrigins);
    }
  }
}
