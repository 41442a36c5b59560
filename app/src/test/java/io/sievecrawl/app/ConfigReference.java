package io.sievecrawl.app;

import io.sievecrawl.config.Setting;
import io.sievecrawl.config.ValueType;
import io.sievecrawl.config.Version;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The configuration reference ({@code app/docs/configuration.md}), from the {@link Setting} table: every key under
 * its section, with its default, the values it takes and their range, what it does, and the flags that set it (an
 * option names its setting in its description, {@code (crawl.scope; default host)}, which HelpTest keeps true).
 */
final class ConfigReference {
  /** {@code (crawl.scope;} in an option's description: the setting the option sets. */
  private static final Pattern SETTING_OF_OPTION = Pattern.compile("\\(([a-z]+\\.[a-z-]+);");

  private ConfigReference() {}

  static String markdown(CommandLine root) {
    Map<String, Set<String>> flags = flagsBySetting(root);
    Map<String, List<Setting<?>>> sections = new LinkedHashMap<>();
    for (Setting<?> setting : Setting.all()) {
      sections.computeIfAbsent(setting.section(), s -> new ArrayList<>()).add(setting);
    }
    StringBuilder out = new StringBuilder(ReferenceDocs.GENERATED).append("""

        # Configuration

        Every setting of a crawl has a key in a config file, a default, and a range its values are checked against when
        the crawl starts. A config file is INI-like: `[section]` headers and `name = value` lines (or
        `section.name = value` anywhere), `#` comment lines, values optionally in double quotes.
        [`config/sievecrawl.conf`](../../config/sievecrawl.conf) lists every key at its default; copy it and change what
        you need.

        - Precedence: flags, then the config file (`-c FILE`), then the defaults. `--set KEY=VALUE` sets any key from
          the command line, and the flags named below set theirs.
        - `--print-settings` prints the effective settings, each with where its value came from, and exits.
        - Durations take a unit (`500ms`, `10s`, `2m`, `1h`, `1d`), sizes too (`512KB`, `10MB`, `1GiB`; KB = 1000 bytes,
          KiB = 1024); counts may be written `10000000`, `10M` or `1e7`, rates `0.001` or `0.1%`.
        - Every problem is reported at once, with file, line, key, value and allowed range; an unknown key gets the
          nearest known one as a suggestion.
        - A crawl directory keeps the settings its crawl was created with; `resume` and `recrawl` start from them.

        """);
    List<String> contents = new ArrayList<>();
    sections.keySet().forEach(section -> contents.add("[" + section + "](#" + section + ")"));
    out.append("Sections: ").append(String.join(" · ", contents)).append("\n");
    sections.forEach((section, settings) -> {
      out.append("\n## ").append(section).append("\n\n");
      out.append(Markdown.header("key", "default", "values", "what it does"));
      for (Setting<?> setting : settings) {
        out.append(Markdown.row(List.of(Markdown.code(setting.key()), defaultOf(setting), values(setting.type()),
            Markdown.text(versionless(setting.description())) + flagsOf(flags.get(setting.key())))));
      }
    });
    return out.toString();
  }

  /** The default as a config file writes it, the build's version written VERSION; {@code none} when empty. */
  private static String defaultOf(Setting<?> setting) {
    return setting.defaultText().isEmpty() ? "none" : Markdown.code(versionless(setting.defaultText()));
  }

  /** Text that does not change with every release: {@code sievecrawl/VERSION}, not {@code sievecrawl/0.1.0}. */
  private static String versionless(String text) {
    return text.replace(Version.get(), "VERSION");
  }

  /** {@code count, e.g. 10000000, 10M or 1e7; 1 to 100G}. */
  private static String values(ValueType<?> type) {
    return Markdown.text(type.description() + type.range().map(r -> "; " + r).orElse(""));
  }

  private static String flagsOf(Set<String> names) {
    if (names == null) {
      return "";
    }
    List<String> codes = names.stream().map(Markdown::code).toList();
    return " Flag: " + String.join(", ", codes) + ".";
  }

  /** The options of every command that set a setting, by the setting's key, each as its names ({@code -n, --expected-urls}). */
  private static Map<String, Set<String>> flagsBySetting(CommandLine root) {
    Map<String, Set<String>> flags = new LinkedHashMap<>();
    for (CommandLine command : root.getSubcommands().values()) {
      for (OptionSpec option : command.getCommandSpec().options()) {
        Matcher m = SETTING_OF_OPTION.matcher(String.join(" ", option.description()));
        if (m.find() && !option.hidden()) {
          flags.computeIfAbsent(m.group(1), k -> new LinkedHashSet<>()).add(CliReference.primaryName(option));
        }
      }
    }
    return flags;
  }
}
