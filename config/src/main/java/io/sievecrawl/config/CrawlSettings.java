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
  private final FilterSettings filter;
  private final CrawlLimits crawl;
  private final PolitenessSettings politeness;
  private final RobotsSettings robots;
  private final FetchSettings fetch;
  private final FrontierSettings frontier;
  private final WarcSettings warc;
  private final RequisiteSettings requisites;
  private final ResultsSettings results;
  private final TrapSettings traps;
  private final RecrawlSettings recrawl;

  private CrawlSettings(Map<Setting<?>, Object> values, Map<Setting<?>, String> origins,
      Map<String, String> headerOrigins) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    this.origins = Collections.unmodifiableMap(new HashMap<>(origins));
    this.headerOrigins = Map.copyOf(headerOrigins);
    this.filter = FilterSettings.from(this);
    this.crawl = CrawlLimits.from(this);
    this.politeness = PolitenessSettings.from(this);
    this.robots = RobotsSettings.from(this);
    this.fetch = FetchSettings.from(this);
    this.frontier = FrontierSettings.from(this);
    this.warc = WarcSettings.from(this);
    this.requisites = RequisiteSettings.from(this);
    this.results = ResultsSettings.from(this);
    this.traps = TrapSettings.from(this);
    this.recrawl = RecrawlSettings.from(this);
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

  /** {@code filter.*}: the URL filter's sizing. */
  public FilterSettings filter() {
    return filter;
  }

  /** {@code crawl.*}: how much the crawl fetches, how fast, and which links it follows. */
  public CrawlLimits crawl() {
    return crawl;
  }

  /** {@code politeness.*}: how gently each origin is treated. */
  public PolitenessSettings politeness() {
    return politeness;
  }

  /** {@code robots.*}: robots.txt and sitemaps. */
  public RobotsSettings robots() {
    return robots;
  }

  /** {@code fetch.*}: how each request is made. */
  public FetchSettings fetch() {
    return fetch;
  }

  /** {@code frontier.*}: how the frontier keeps its state. */
  public FrontierSettings frontier() {
    return frontier;
  }

  /** {@code warc.*}: WARC files of the HTTP exchanges. */
  public WarcSettings warc() {
    return warc;
  }

  /** {@code requisites.*}: what a page needs to be shown, fetched with it. */
  public RequisiteSettings requisites() {
    return requisites;
  }

  /** {@code results.*}: what each page's record carries. */
  public ResultsSettings results() {
    return results;
  }

  /** {@code traps.*}: defences against spider traps. */
  public TrapSettings traps() {
    return traps;
  }

  /** {@code recrawl.*}: what a recrawl visits again and forgets. */
  public RecrawlSettings recrawl() {
    return recrawl;
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
    List<RequestHeader> headers = fetch.headers();
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

  private static String lowerName(RequestHeader header) {
    return header.name().toLowerCase(Locale.ROOT);
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
        values.put(setting, setting == Setting.HEADER ? added(Setting.HEADER.parse(text), origin)
            : setting.parse(text));
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
