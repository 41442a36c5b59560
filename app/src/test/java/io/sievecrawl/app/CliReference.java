package io.sievecrawl.app;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The command-line reference ({@code app/docs/cli.md}), rendered from the picocli model: every command with its
 * arguments and options under the headings its {@code --help} shows them under, in the same order, each option with
 * its default, and the exit codes the command can end with.
 *
 * <p>Markdown rather than picocli's man-page AsciiDoc: one page that GitHub shows with a table per group and links
 * between commands, and no line wrapping, so nothing depends on a terminal's width. A group of options that an
 * earlier command shows identically (the settings shared by crawl, resume, recrawl, join and bench) is named there
 * rather than repeated.
 */
final class CliReference {
  private final StringBuilder out = new StringBuilder();
  /** Each group's heading and rendered table, with where it was shown first. */
  private final Map<String, Shown> groupsShown = new HashMap<>();
  /** How many headings so far gave each anchor: GitHub numbers the repeats ({@code #scope-1}). */
  private final Map<String, Integer> anchors = new HashMap<>();

  /** Where a group of options was shown first: the command's title and the group heading's anchor. */
  private record Shown(String command, String anchor) {}

  private CliReference() {}

  static String markdown(CommandLine root) {
    return new CliReference().render(root);
  }

  private String render(CommandLine root) {
    CommandSpec spec = root.getCommandSpec();
    out.append(ReferenceDocs.GENERATED).append('\n');
    heading(1, "The sievecrawl command line");
    paragraphs(spec.usageMessage().description());
    out.append(Markdown.header("command", "what it does"));
    for (CommandLine sub : visibleSubcommands(root)) {
      CommandSpec s = sub.getCommandSpec();
      out.append(Markdown.row(List.of("[" + Markdown.code(s.name()) + "](#" + Markdown.anchor(title(s)) + ")",
          Markdown.text(format(s.usageMessage().description()[0])))));
    }
    out.append("\nEvery command takes `-h`/`--help` and `-V`/`--version`. The settings the options stand for, and every"
        + " other setting, are in [configuration.md](configuration.md); what each exit code means is in"
        + " [exit-codes.md](exit-codes.md).\n");
    command(root);
    for (CommandLine sub : visibleSubcommands(root)) {
      command(sub);
    }
    return out.toString().replaceAll("\n{3,}", "\n\n");
  }

  private static List<CommandLine> visibleSubcommands(CommandLine cmd) {
    return cmd.getSubcommands().values().stream().filter(c -> !c.getCommandSpec().usageMessage().hidden()).toList();
  }

  /** Writes a heading of {@code level} and returns its anchor, as GitHub makes it unique on the page. */
  private String heading(int level, String text) {
    String anchor = Markdown.anchor(text);
    int seen = anchors.merge(anchor, 1, Integer::sum) - 1;
    out.append("#".repeat(level)).append(' ').append(text).append("\n\n");
    return seen == 0 ? anchor : anchor + "-" + seen;
  }

  /** {@code sievecrawl crawl}: a command's heading. */
  private static String title(CommandSpec spec) {
    return spec.qualifiedName();
  }

  private void command(CommandLine cmd) {
    CommandSpec spec = cmd.getCommandSpec();
    out.append('\n');
    heading(2, title(spec));
    out.append("```\n").append(synopsis(spec)).append("\n```\n\n");
    if (cmd.getParent() != null) {
      paragraphs(spec.usageMessage().description());
    }
    List<ArgSpec> ungrouped = new ArrayList<>();
    spec.positionalParameters().stream().filter(p -> p.group() == null && !p.hidden()).forEach(ungrouped::add);
    spec.options().stream().filter(o -> o.group() == null && !o.hidden()).forEach(ungrouped::add);
    if (!ungrouped.isEmpty()) {
      boolean positionals = ungrouped.stream().anyMatch(ArgSpec::isPositional);
      heading(3, positionals ? "Arguments and options" : "Options");
      table(ungrouped);
    }
    Map<String, List<String>> sharedByCommand = new LinkedHashMap<>(); // rows of groups shown before, by command
    for (ArgGroupSpec group : groups(spec)) {
      String heading = format(group.heading()).strip().replaceAll(":$", "");
      List<ArgSpec> args = group.args().stream().filter(a -> !a.hidden()).toList();
      String rows = rows(args);
      Shown first = groupsShown.get(heading + "\n" + rows);
      if (first == null) {
        groupsShown.put(heading + "\n" + rows, new Shown(title(spec), heading(3, heading)));
        out.append(Markdown.header("option", "what it does")).append(rows).append('\n');
      } else {
        sharedByCommand.computeIfAbsent(first.command(), c -> new ArrayList<>()).add(Markdown.row(List.of(
            "[" + Markdown.text(heading) + "](#" + first.anchor() + ")",
            args.stream().map(a -> Markdown.code(primaryName(a))).collect(Collectors.joining(", ")))));
      }
    }
    sharedByCommand.forEach((command, rows) -> {
      heading(3, "Options shared with " + command.substring(command.indexOf(' ') + 1));
      out.append(Markdown.header("group", "options")).append(String.join("", rows)).append('\n');
    });
    exitCodes(cmd);
    List<String> footer = List.of(spec.usageMessage().footer());
    if (!footer.isEmpty()) {
      out.append('\n');
      paragraphs(footer.toArray(String[]::new));
    }
  }

  /** The command's argument groups, in the order of their {@code order} attribute, as the help shows them. */
  private static List<ArgGroupSpec> groups(CommandSpec spec) {
    Set<ArgGroupSpec> groups = new LinkedHashSet<>();
    for (OptionSpec option : spec.options()) {
      if (option.group() != null && !option.hidden()) {
        groups.add(option.group());
      }
    }
    return groups.stream().sorted(Comparator.comparingInt(ArgGroupSpec::order)).toList();
  }

  /**
   * {@code sievecrawl join --redis=URI --crawl-name=NAME [OPTIONS]}: the command, its required options, then its
   * positional parameters ({@code [SEEDS]} when optional).
   */
  private static String synopsis(CommandSpec spec) {
    StringBuilder s = new StringBuilder(title(spec));
    for (OptionSpec option : spec.options()) {
      if (option.required() && !option.hidden()) {
        s.append(' ').append(primaryName(option)).append('=').append(option.paramLabel());
      }
    }
    if (!spec.subcommands().isEmpty()) {
      s.append(" COMMAND");
    }
    s.append(" [OPTIONS]");
    for (PositionalParamSpec p : spec.positionalParameters()) {
      if (!p.hidden()) {
        String label = p.paramLabel() + (p.arity().max() > 1 ? "..." : "");
        s.append(' ').append(p.arity().min() == 0 ? "[" + label + "]" : label);
      }
    }
    return s.toString();
  }

  private void table(List<ArgSpec> args) {
    boolean positionals = args.stream().anyMatch(ArgSpec::isPositional);
    out.append(Markdown.header(positionals ? "argument or option" : "option", "what it does")).append(rows(args))
        .append('\n');
  }

  private static String rows(List<ArgSpec> args) {
    StringBuilder rows = new StringBuilder();
    for (ArgSpec arg : args) {
      rows.append(Markdown.row(List.of(Markdown.code(names(arg)), Markdown.text(description(arg)))));
    }
    return rows.toString();
  }

  /** {@code -n, --expected-urls=N} as the help writes it; {@code SEEDS} for a positional parameter. */
  private static String names(ArgSpec arg) {
    if (arg instanceof OptionSpec option) {
      List<String> names = new ArrayList<>();
      for (String name : option.names()) {
        names.add(option.negatable() && name.startsWith("--")
            ? option.command().negatableOptionTransformer().makeSynopsis(name, option.command()) : name);
      }
      String joined = String.join(", ", names);
      return option.arity().max() == 0 ? joined : joined + "=" + option.paramLabel();
    }
    return arg.paramLabel();
  }

  /** The name an option is best known by: its first long name ({@code --insecure} of {@code -k, --insecure, ...}). */
  static String primaryName(ArgSpec arg) {
    if (!(arg instanceof OptionSpec option)) {
      return arg.paramLabel();
    }
    return Stream.of(option.names()).filter(n -> n.startsWith("--")).findFirst().orElse(option.names()[0]);
  }

  /**
   * The description as the help shows it, with its default added when the description does not say it and the
   * option has one ({@code (default: 5000)}); a required option is marked so.
   */
  private static String description(ArgSpec arg) {
    // picocli gives an option's description formatted already (%n a line break, %% a percent sign), interpolated too
    String text = String.join(" ", arg.description()).replace(System.lineSeparator(), " ").strip();
    if (arg instanceof OptionSpec option && option.required()) {
      text = "Required. " + text;
    }
    String defaultValue = arg.defaultValue();
    if (defaultValue != null && arg.arity().max() > 0 && !text.toLowerCase(Locale.ROOT).contains("default")) {
      text += " (default: " + defaultValue + ")";
    }
    return text;
  }

  private void exitCodes(CommandLine cmd) {
    Map<String, String> codes = cmd.getCommandSpec().usageMessage().exitCodeList();
    if (!codes.isEmpty()) {
      out.append("Exit codes: ")
          .append(codes.keySet().stream().map(code -> Markdown.code(code.strip())).collect(Collectors.joining(", ")))
          .append(" ([what each means](exit-codes.md)).\n");
    }
  }

  private void paragraphs(String[] lines) {
    for (String line : lines) {
      String text = format(line).strip();
      if (!text.isEmpty()) {
        out.append(Markdown.text(text)).append("\n\n");
      }
    }
  }

  /**
   * A command's description or a heading as picocli prints it: {@code %n} a line break (here a space), {@code %%} a
   * percent sign.
   */
  private static String format(String text) {
    return String.format(Locale.ROOT, text).replace(System.lineSeparator(), " ").strip();
  }
}
