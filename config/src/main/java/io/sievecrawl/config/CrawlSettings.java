package io.sievecrawl.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The settings of one crawl: immutable, complete (every {@link Setting} has a value) and valid.
 *
 * <p>Build with {@link #builder()}; a setting left unset takes its default from {@link Setting}. {@link
 * Builder#build()} checks every value at once and reports all problems together in a {@link SettingsException}.
 */
public final class CrawlSettings {
  private final Map<Setting, Object> values;
  private final Map<Setting, String> origins;
  private final Map<String, String> headerOrigins; // by lower-cased header name: fetch.header's lines have their own

  private CrawlSettings(Map<Setting, Object> values, Map<Setting, String> origins, Map<String, String> headerOrigins) {
    this.values = Collections.unmodifiableMap(new EnumMap<>(values));
    this.origins = Collections.unmodifiableMap(new EnumMap<>(origins));
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

  /** The value of {@code setting}, of the type its {@link Setting.Type} implies. */
  public Object get(Setting setting) {
    return values.get(setting);
  }

  /** Where the value of {@code setting} came from: {@code "default"}, a file and line, or a flag. */
  public String origin(Setting setting) {
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
    for (Setting s : Setting.values()) {
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
  private String originOf(Setting s, int i) {
    return s == Setting.HEADER && i < headers().size()
        ? headerOrigins.getOrDefault(lowerName(headers().get(i)), origin(s)) : origin(s);
  }

  /**
   * The settings as a config file that {@link ConfigFile} reads back to equal settings: one {@code key = value} line
   * per setting (per header for {@code fetch.header}), text values in double quotes.
   */
  public String toConfigText() {
    StringBuilder text = new StringBuilder();
    for (Setting s : Setting.values()) {
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
    Map<String, List<String>> shown = new java.util.LinkedHashMap<>();
    for (Setting s : Setting.values()) {
      shown.put(s.key(), configValues(s, true));
    }
    return shown;
  }

  /**
   * The value of {@code s} as a config file holds it, exactly: text in double quotes, sizes to the byte; a line per
   * header ({@code ""} for none), credentials hidden when {@code hide} is true.
   */
  private List<String> configValues(Setting s, boolean hide) {
    Object value = values.get(s);
    return switch (s.type()) {
      case STRING, PATTERNS, PINS -> List.of("\"" + format(s, value) + "\""); // quoted: a '#' in them is no comment
      case SIZE -> List.of(Values.formatSizeExact((Long) value));
      case HEADER -> headers().isEmpty() ? List.of("\"\"")
          : headers().stream().map(h -> "\"" + (hide ? h.shown() : h.toString()) + "\"").toList();
      default -> List.of(format(s, value));
    };
  }

  static String format(Setting s, Object value) {
    return switch (s.type()) {
      case DURATION -> Values.formatDuration((Duration) value);
      case SIZE -> Values.formatSize((Long) value);
      case COUNT -> Values.formatCount((Long) value);
      case SCOPE -> ((Scope) value).configName();
      case PATTERNS, PINS -> ((List<?>) value).stream().map(Object::toString).collect(Collectors.joining(" "));
      default -> String.valueOf(value);
    };
  }

  public long expectedUrls() {
    return (Long) values.get(Setting.FILTER_N);
  }

  public double fpp() {
    return (Double) values.get(Setting.FILTER_P);
  }

  public int concurrency() {
    return (Integer) values.get(Setting.CONCURRENCY);
  }

  /** 0 means no limit. */
  public long maxPages() {
    return (Long) values.get(Setting.MAX_PAGES);
  }

  /** The longest a run of the crawl may last; zero for no limit. */
  public Duration maxTime() {
    return (Duration) values.get(Setting.MAX_TIME);
  }

  public int maxDepth() {
    return (Integer) values.get(Setting.MAX_DEPTH);
  }

  /** 0 means no limit. */
  public long maxPagesPerHost() {
    return (Long) values.get(Setting.MAX_PAGES_PER_HOST);
  }

  public Scope scope() {
    return (Scope) values.get(Setting.SCOPE);
  }

  @SuppressWarnings("unchecked")
  public List<Pattern> include() {
    return (List<Pattern>) values.get(Setting.INCLUDE);
  }

  @SuppressWarnings("unchecked")
  public List<Pattern> exclude() {
    return (List<Pattern>) values.get(Setting.EXCLUDE);
  }

  public Duration delay() {
    return (Duration) values.get(Setting.DELAY);
  }

  public boolean adaptiveDelay() {
    return (Boolean) values.get(Setting.ADAPTIVE);
  }

  public int responseTimeFactor() {
    return (Integer) values.get(Setting.RESPONSE_TIME_FACTOR);
  }

  public Duration maxDelay() {
    return (Duration) values.get(Setting.MAX_DELAY);
  }

  public boolean allowPrivateAddresses() {
    return (Boolean) values.get(Setting.ALLOW_PRIVATE_ADDRESSES);
  }

  public int hostConcurrency() {
    return (Integer) values.get(Setting.HOST_CONCURRENCY);
  }

  public Duration maxCrawlDelay() {
    return (Duration) values.get(Setting.MAX_CRAWL_DELAY);
  }

  public boolean honorNofollow() {
    return (Boolean) values.get(Setting.HONOR_NOFOLLOW);
  }

  public boolean obeyRobots() {
    return (Boolean) values.get(Setting.OBEY_ROBOTS);
  }

  public boolean followSitemaps() {
    return (Boolean) values.get(Setting.FOLLOW_SITEMAPS);
  }

  /** Bytes. */
  public long robotsCacheMemory() {
    return (Long) values.get(Setting.ROBOTS_CACHE_MEMORY);
  }

  public int maxLinksPerPage() {
    return (Integer) values.get(Setting.MAX_LINKS_PER_PAGE);
  }

  public Duration frontierSyncInterval() {
    return (Duration) values.get(Setting.FRONTIER_SYNC_INTERVAL);
  }

  public Duration leaseTtl() {
    return (Duration) values.get(Setting.LEASE_TTL);
  }

  public Duration redisOutageGrace() {
    return (Duration) values.get(Setting.REDIS_OUTAGE_GRACE);
  }

  public Duration frontierCheckpointInterval() {
    return (Duration) values.get(Setting.FRONTIER_CHECKPOINT_INTERVAL);
  }

  public Duration robotsRetry() {
    return (Duration) values.get(Setting.ROBOTS_RETRY);
  }

  public String userAgent() {
    return (String) values.get(Setting.USER_AGENT);
  }

  /** The contact address for the User-Agent, or the empty string. */
  public String contact() {
    return (String) values.get(Setting.CONTACT);
  }

  /** The User-Agent header sent: {@code fetch.user-agent}, with {@code (+fetch.contact)} when a contact is set. */
  public String userAgentHeader() {
    String contact = contact();
    String agent = userAgent();
    return contact.isEmpty() || agent.contains(contact) ? agent : agent + " (+" + contact + ")";
  }

  /** The product token robots.txt groups are matched against; see {@link Setting#ROBOTS_AGENT}. */
  public String robotsAgentName() {
    String configured = (String) values.get(Setting.ROBOTS_AGENT);
    if (!configured.isEmpty()) {
      return configured.toLowerCase(java.util.Locale.ROOT);
    }
    for (String word : userAgent().split("[\\s;()]+")) {
      String token = word.split("/", 2)[0];
      String lower = token.toLowerCase(java.util.Locale.ROOT);
      if (token.matches("[A-Za-z_-]+") && !lower.equals("mozilla") && !lower.equals("compatible")) {
        return lower;
      }
    }
    return "sievecrawl";
  }

  public Duration connectTimeout() {
    return (Duration) values.get(Setting.CONNECT_TIMEOUT);
  }

  public Duration readTimeout() {
    return (Duration) values.get(Setting.READ_TIMEOUT);
  }

  public Duration callTimeout() {
    return (Duration) values.get(Setting.CALL_TIMEOUT);
  }

  /** The directory WARC files go to; empty when none are written. */
  public String warcDir() {
    return (String) values.get(Setting.WARC_DIR);
  }

  public long warcMaxSize() {
    return (Long) values.get(Setting.WARC_MAX_SIZE);
  }

  public String warcPrefix() {
    return (String) values.get(Setting.WARC_PREFIX);
  }

  /** results.text: HTML pages' records carry their visible text. */
  public boolean recordText() {
    return (Boolean) values.get(Setting.RESULTS_TEXT);
  }

  /** results.links: pages' records carry the links found and why each was not followed. */
  public boolean recordLinks() {
    return (Boolean) values.get(Setting.RESULTS_LINKS);
  }

  public long maxBodySize() {
    return (Long) values.get(Setting.MAX_BODY_SIZE);
  }

  public int maxRedirects() {
    return (Integer) values.get(Setting.MAX_REDIRECTS);
  }

  public int maxRetries() {
    return (Integer) values.get(Setting.MAX_RETRIES);
  }

  public Duration retryBackoff() {
    return (Duration) values.get(Setting.RETRY_BACKOFF);
  }

  public Duration maxRetryAfter() {
    return (Duration) values.get(Setting.MAX_RETRY_AFTER);
  }

  /** fetch.proxy: empty (the environment's proxies), {@code none}, or an HTTP proxy URL without credentials. */
  public String proxy() {
    return (String) values.get(Setting.PROXY);
  }

  /** The PEM file of extra CA certificates to trust (fetch.ca-file), or the empty string. */
  public String caFile() {
    return (String) values.get(Setting.CA_FILE);
  }

  /** Whether any TLS certificate is accepted (fetch.insecure-tls). */
  public boolean insecureTls() {
    return (Boolean) values.get(Setting.INSECURE_TLS);
  }

  /** Whether the crawl keeps the cookies sites set and sends them back (fetch.cookies). */
  public boolean cookies() {
    return (Boolean) values.get(Setting.COOKIES);
  }

  /** fetch.resolve: host names pinned to addresses. */
  @SuppressWarnings("unchecked")
  public List<HostPin> pins() {
    return (List<HostPin>) values.get(Setting.RESOLVE);
  }

  /** The extra headers every request carries (fetch.header), in the order given. */
  @SuppressWarnings("unchecked")
  public List<RequestHeader> headers() {
    return (List<RequestHeader>) values.get(Setting.HEADER);
  }

  private static String lowerName(RequestHeader header) {
    return header.name().toLowerCase(java.util.Locale.ROOT);
  }

  public int maxUrlLength() {
    return (Integer) values.get(Setting.MAX_URL_LENGTH);
  }

  public int maxPathSegments() {
    return (Integer) values.get(Setting.MAX_PATH_SEGMENTS);
  }

  public int maxSegmentRepeats() {
    return (Integer) values.get(Setting.MAX_SEGMENT_REPEATS);
  }

  public boolean stripSessionIds() {
    return (Boolean) values.get(Setting.STRIP_SESSION_IDS);
  }

  @Override
  public String toString() {
    return String.join("\n", describe());
  }

  /** Collects values and their origins; {@link #build()} validates them all at once. */
  public static final class Builder {
    private final Map<Setting, Object> values = new EnumMap<>(Setting.class);
    private final Map<Setting, String> origins = new EnumMap<>(Setting.class);
    private final Map<Setting, String> rawTexts = new EnumMap<>(Setting.class);
    private final Map<String, String> headerOrigins = new java.util.HashMap<>();
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
     * {@code "--delay"}).
     */
    public Builder parse(Setting setting, String text, String origin) {
      rawTexts.put(setting, text);
      origins.put(setting, origin);
      try {
        Object value = setting.parse(text);
        values.put(setting, setting.repeatable() ? added(setting, value, origin) : value);
      } catch (IllegalArgumentException e) {
        values.remove(setting);
        problems.add(new Problem(origin, setting.key(), text, e.getMessage()));
      }
      return this;
    }

    /**
     * The list {@code setting} holds once {@code parsed} (a list of one header, or none) is added to it: a header
     * replaces one of the same name, and an empty value clears the list.
     */
    private List<RequestHeader> added(Setting setting, Object parsed, String origin) {
      @SuppressWarnings("unchecked")
      List<RequestHeader> more = (List<RequestHeader>) parsed;
      if (more.isEmpty()) {
        headerOrigins.clear();
        return List.of();
      }
      @SuppressWarnings("unchecked")
      List<RequestHeader> earlier = (List<RequestHeader>) values.getOrDefault(setting, List.of());
      List<RequestHeader> merged = new ArrayList<>(earlier);
      for (RequestHeader header : more) {
        merged.removeIf(header::sameName);
        merged.add(header);
        headerOrigins.put(lowerName(header), origin);
      }
      return List.copyOf(merged);
    }

    /** Sets {@code setting} to a typed value (a {@code Long}, {@code Integer}, {@code Duration}, ...). */
    public Builder set(Setting setting, Object value) {
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
      Map<Setting, Object> complete = new EnumMap<>(Setting.class);
      for (Setting s : Setting.values()) {
        if (values.containsKey(s)) {
          Object value = values.get(s);
          try {
            checkType(s, value);
            s.checkRange(value);
            complete.put(s, value);
          } catch (IllegalArgumentException e) {
            String text = rawTexts.getOrDefault(s, value instanceof Duration d ? Values.formatDuration(d) // not PT2H
                : String.valueOf(value));
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

    private static void checkType(Setting s, Object value) {
      Class<?> expected = switch (s.type()) {
        case COUNT -> Long.class;
        case INT -> Integer.class;
        case RATE -> Double.class;
        case DURATION -> Duration.class;
        case SIZE -> Long.class;
        case BOOLEAN -> Boolean.class;
        case STRING -> String.class;
        case SCOPE -> Scope.class;
        case PATTERNS, HEADER, PINS -> List.class;
      };
      if (!expected.isInstance(value)) {
        throw new IllegalArgumentException("must be a " + s.type().description());
      }
    }
  }
}
