package io.sievecrawl.app;

import io.sievecrawl.config.ConfigFile;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.HostPin;
import io.sievecrawl.config.Problem;
import io.sievecrawl.config.Setting;
import io.sievecrawl.config.SettingsException;
import io.sievecrawl.crawler.fetch.ProxyRoutes;
import io.sievecrawl.crawler.fetch.TlsTrust;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * The crawl settings options shared by {@code crawl}, {@code resume}, {@code join} and {@code bench}: a config file,
 * then flags over it. The help lists them under headings (the argument groups below), each with the setting it
 * sets and that setting's default (HelpTest checks every one against the setting).
 */
final class SettingsOptions {
  @ArgGroup(validate = false, heading = "%nSettings:%n", order = 10)
  Settings file = new Settings();

  @ArgGroup(validate = false, heading = "%nScope:%n", order = 20)
  Scope scopeOptions = new Scope();

  @ArgGroup(validate = false, heading = "%nPoliteness and speed:%n", order = 30)
  Pace pace = new Pace();

  @ArgGroup(validate = false, heading = "%nLimits and the URL filter:%n", order = 40)
  Limits limits = new Limits();

  @ArgGroup(validate = false, heading = "%nPage records:%n", order = 60)
  Records records = new Records();

  @ArgGroup(validate = false, heading = "%nArchive:%n", order = 70)
  Archive archive = new Archive();

  @ArgGroup(validate = false, heading = "%nNetwork:%n", order = 90)
  Network network = new Network();

  static final class Settings {
    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
        description = "Config file (see config/sievecrawl.conf for every key and its default).")
    Path config;

    @Option(names = {"-s", "--set"}, paramLabel = "KEY=VALUE",
        description = "Any setting by its config key, e.g. --set robots.obey=false. Repeatable.")
    List<String> sets = new ArrayList<>();
  }

  static final class Scope {
    @Option(names = "--scope", paramLabel = "host|domain|any", completionCandidates = ScopeNames.class,
        description = "Hosts to follow links to: the seeds' hosts, their registrable domains, or any (crawl.scope;"
            + " default host).")
    String scope;

    @Option(names = "--include", paramLabel = "REGEX",
        description = "Follow only URLs a regular expression matches, searched anywhere in the URL (crawl.include;"
            + " default none). Repeatable: any one may match.")
    List<String> includes = new ArrayList<>();

    @Option(names = "--exclude", paramLabel = "REGEX",
        description = "Do not fetch URLs a regular expression matches (crawl.exclude; default none). Repeatable.")
    List<String> excludes = new ArrayList<>();

    @Option(names = "--max-depth", paramLabel = "N",
        description = "Link hops from a seed; 0 fetches the seeds only (crawl.max-depth; default 50).")
    String maxDepth;
  }

  /** The values {@code --scope} takes, for shell completion. */
  static final class ScopeNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return java.util.Arrays.stream(io.sievecrawl.config.Scope.values()).map(io.sievecrawl.config.Scope::configName)
          .iterator();
    }
  }

  static final class Pace {
    @Option(names = "--delay", paramLabel = "DURATION",
        description = "Fixed least time between requests to one origin, e.g. 250ms, or 0ms for your own servers"
            + " (politeness.delay; default 1s, adapted to the server's response time; a fixed delay turns"
            + " politeness.adaptive off).")
    String delay;

    @Option(names = "--host-concurrency", paramLabel = "N",
        description = "Requests in flight at once per origin (politeness.host-concurrency; default 1).")
    String hostConcurrency;

    @Option(names = "--concurrency", paramLabel = "N",
        description = "Fetches in flight at once, all origins together (crawl.concurrency; default 32).")
    String concurrency;
  }

  static final class Limits {
    @Option(names = "--max-pages", paramLabel = "N",
        description = "Stop after N fetches, resumable; 0 = no limit (crawl.max-pages; default 0).")
    String maxPages;

    @Option(names = "--max-time", paramLabel = "DURATION",
        description = "Stop after this long, e.g. 6h, resumable as after Ctrl-C; 0s = no limit (crawl.max-time;"
            + " default 0s).")
    String maxTime;

    @Option(names = {"-n", "--expected-urls"}, paramLabel = "N",
        description = "Expected distinct URLs; sizes the URL filter, e.g. 10000000, 10M or 1e7 (filter.n; default"
            + " 10M).")
    String expectedUrls;

    @Option(names = {"-p", "--fpp"}, paramLabel = "P",
        description = "URL filter false-positive rate at N, e.g. 0.001 or 0.1%% (filter.p; default 0.001).")
    String fpp;
  }

  static final class Records {
    @Option(names = "--text", description = "Each HTML page's record carries its text as a browser shows it, a line"
        + " per block (results.text; default false).")
    Boolean text;

    @Option(names = {"--links", "--outlinks"},
        description = "Each page's record carries the links found, with why each was not followed (results.links;"
            + " default false).")
    Boolean links;
  }

  static final class Archive {
    @Option(names = "--warc", paramLabel = "DIR",
        description = "Also write every HTTP exchange to WARC/1.1 files in DIR, a folder created if missing in a"
            + " folder that exists (warc.dir; default none; see warc.max-size).")
    String warc;

    @Option(names = "--wacz", paramLabel = "FILE",
        description = "At the end of the run, package the WARC files (--warc) as WACZ FILE, as 'sievecrawl wacz'"
            + " does (default none).")
    Path wacz;

    @Option(names = "--requisites", negatable = true, description = "Also fetch what each page needs to be shown"
        + " (style sheets, images, scripts...), or with --no-requisites none; auto fetches them with --warc"
        + " (requisites.fetch; default auto).")
    Boolean requisites;
  }

  static final class Network {
    @Option(names = "--user-agent", paramLabel = "TEXT",
        description = "User-Agent header (fetch.user-agent; default sievecrawl/VERSION).")
    String userAgent;

    @Option(names = {"-H", "--header"}, paramLabel = "'NAME: VALUE'",
        description = "An extra header for every request, e.g. --header 'Accept-Language: fr' (fetch.header;"
            + " default none). Repeatable. Authorization and Cookie go only to the seeds' origins.")
    List<String> headers = new ArrayList<>();

    @Option(names = "--resolve", paramLabel = "HOST:PORT:ADDRESS",
        description = "Connect to ADDRESS for HOST instead of asking DNS, as curl's --resolve; PORT may be *; the pin"
            + " holds on every port (fetch.resolve; default none). Repeatable.")
    List<String> resolves = new ArrayList<>();

    @Option(names = "--resolve-file", paramLabel = "FILE",
        description = "Pins as --resolve takes them, one or more a line (# comments), from FILE.")
    Path resolveFile;

    @Option(names = {"-k", "--insecure", "--no-check-certificate"},
        description = "Accept any TLS certificate, self-signed or expired; for test and intranet sites only"
            + " (fetch.insecure-tls; default false).")
    Boolean insecure;
  }

  /** The WACZ file {@code --wacz} names, or {@code null}. */
  Path wacz() {
    return archive.wacz;
  }

  /**
   * The effective settings: defaults, then the config file, then flags.
   *
   * @throws UserError with {@link ExitCodes#CONFIG} listing every problem
   */
  CrawlSettings settings() {
    return settings(null);
  }

  /** The settings a crawl recorded in {@code base}, over the defaults, without this command's flags. */
  CrawlSettings recorded(Path base) {
    CrawlSettings.Builder builder = CrawlSettings.builder();
    try {
      ConfigFile.load(base, builder);
      return builder.build();
    } catch (IOException | SettingsException e) {
      throw new UserError(ExitCodes.JOB, "cannot read the crawl's settings " + base + ": " + e.getMessage());
    }
  }

  /**
   * The effective settings over a base config file (a resumed crawl's own settings): defaults, the base, the config
   * file, then flags.
   */
  CrawlSettings settings(Path base) {
    CrawlSettings.Builder builder = CrawlSettings.builder();
    if (base != null) {
      try {
        ConfigFile.load(base, builder);
      } catch (IOException e) {
        throw new UserError(ExitCodes.JOB, "cannot read the crawl's settings " + base + ": " + e.getMessage());
      }
    }
    Path config = file.config;
    if (config != null) {
      try {
        ConfigFile.load(config, builder);
      } catch (NoSuchFileException e) {
        throw new UserError(ExitCodes.CONFIG, "config file not found: " + config);
      } catch (IOException e) {
        throw new UserError(ExitCodes.CONFIG, "cannot read config file " + config + ": " + e.getMessage());
      }
    }
    flag(builder, Setting.FILTER_N, limits.expectedUrls, "--expected-urls");
    flag(builder, Setting.FILTER_P, limits.fpp, "--fpp");
    flag(builder, Setting.CONCURRENCY, pace.concurrency, "--concurrency");
    flag(builder, Setting.HOST_CONCURRENCY, pace.hostConcurrency, "--host-concurrency");
    flag(builder, Setting.DELAY, pace.delay, "--delay");
    if (pace.delay != null) {
      builder.parse(Setting.ADAPTIVE, "false", "--delay"); // a delay given on the command line is meant exactly
    }
    flag(builder, Setting.MAX_PAGES, limits.maxPages, "--max-pages");
    flag(builder, Setting.MAX_TIME, limits.maxTime, "--max-time");
    flag(builder, Setting.MAX_DEPTH, scopeOptions.maxDepth, "--max-depth");
    flag(builder, Setting.SCOPE, scopeOptions.scope, "--scope");
    flag(builder, Setting.USER_AGENT, network.userAgent, "--user-agent");
    flag(builder, Setting.WARC_DIR, archive.warc, "--warc");
    patterns(builder, Setting.INCLUDE, scopeOptions.includes, "--include");
    patterns(builder, Setting.EXCLUDE, scopeOptions.excludes, "--exclude");
    flag(builder, Setting.INSECURE_TLS, network.insecure == null ? null : network.insecure.toString(), "--insecure");
    flag(builder, Setting.RESULTS_TEXT, records.text == null ? null : records.text.toString(), "--text");
    flag(builder, Setting.REQUISITES_FETCH, archive.requisites == null ? null : archive.requisites ? "on" : "off",
        archive.requisites == null || archive.requisites ? "--requisites" : "--no-requisites");
    flag(builder, Setting.RESULTS_LINKS, records.links == null ? null : records.links.toString(), "--links");
    for (String header : network.headers) {
      builder.parse(Setting.HEADER, header, "--header");
    }
    pins(builder);
    for (String set : file.sets) {
      int eq = set.indexOf('=');
      String key = eq < 0 ? set : set.substring(0, eq).strip();
      Optional<Setting<?>> setting = Setting.forKey(key);
      if (eq < 0) {
        builder.problem(new Problem("--set", set, null, "expected KEY=VALUE"));
      } else if (setting.isEmpty()) {
        builder.problem(new Problem("--set", key, set.substring(eq + 1), Setting.closestKey(key)
            .map(k -> "unknown key; did you mean " + k + "?").orElse("unknown key")));
      } else {
        builder.parse(setting.get(), set.substring(eq + 1), "--set");
      }
    }
    CrawlSettings settings;
    try {
      settings = withAbsolutePaths(builder.build(), List.of(Setting.WARC_DIR, Setting.CA_FILE));
    } catch (SettingsException e) {
      throw new UserError(ExitCodes.CONFIG, e.getMessage());
    }
    try {
      // the environment's proxies are checked as settings are
      ProxyRoutes.of(settings.fetch().proxy(), System.getenv());
      TlsTrust.check(settings.fetch());
    } catch (IllegalArgumentException e) {
      throw new UserError(ExitCodes.CONFIG, e.getMessage());
    }
    return settings;
  }

  /** Settings with the relative paths of {@code paths} made absolute: a resume from elsewhere finds the same files. */
  private static CrawlSettings withAbsolutePaths(CrawlSettings settings, List<Setting<String>> paths) {
    CrawlSettings.Builder absolute = null;
    for (Setting<String> setting : paths) {
      String path = settings.get(setting);
      if (!path.isEmpty() && !Path.of(path).isAbsolute()) {
        absolute = absolute != null ? absolute : settings.toBuilder();
        absolute.parse(setting, Path.of(path).toAbsolutePath().normalize().toString(), settings.origin(setting));
      }
    }
    return absolute == null ? settings : absolute.build();
  }

  /** Repeated pattern flags as one value of a pattern setting, which holds them space-separated. */
  private static void patterns(CrawlSettings.Builder builder, Setting<?> setting, List<String> regexes, String flag) {
    for (String regex : regexes) {
      if (regex.isBlank() || regex.chars().anyMatch(Character::isWhitespace)) {
        builder.problem(new Problem(flag, setting.key(), regex,
            "a pattern must not be empty or hold white space (write \\s or \\x20 for a space)"));
        return;
      }
    }
    if (!regexes.isEmpty()) {
      builder.parse(setting, String.join(" ", regexes), flag);
    }
  }

  /** --resolve and --resolve-file as one value of fetch.resolve; a bad line of the file is named by its number. */
  private void pins(CrawlSettings.Builder builder) {
    List<String> pins = new ArrayList<>(network.resolves);
    Path resolveFile = network.resolveFile;
    if (resolveFile != null) {
      List<String> lines;
      try {
        lines = Files.readAllLines(resolveFile);
      } catch (IOException e) {
        throw new UserError(ExitCodes.CONFIG, "cannot read --resolve-file " + resolveFile + ": " + e.getMessage());
      }
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        int hash = line.indexOf('#');
        for (String pin : (hash < 0 ? line : line.substring(0, hash)).trim().split("\\s+")) {
          if (pin.isEmpty()) {
            continue;
          }
          try {
            HostPin.parse(pin);
            pins.add(pin);
          } catch (IllegalArgumentException e) {
            builder.problem(new Problem(resolveFile + ":" + (i + 1), Setting.RESOLVE.key(), pin, e.getMessage()));
          }
        }
      }
    }
    if (!pins.isEmpty()) {
      builder.parse(Setting.RESOLVE, String.join(" ", pins), resolveFile == null ? "--resolve" : "--resolve-file");
    }
  }

  private static void flag(CrawlSettings.Builder builder, Setting<?> setting, String value, String flag) {
    if (value != null) {
      builder.parse(setting, value, flag);
    }
  }
}
