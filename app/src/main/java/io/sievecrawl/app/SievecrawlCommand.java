package io.sievecrawl.app;

import io.sievecrawl.config.Version;
import picocli.CommandLine.Command;

/** The top-level {@code sievecrawl} command: only subcommands, help and version. */
@Command(
    name = "sievecrawl",
    mixinStandardHelpOptions = true,
    versionProvider = SievecrawlCommand.VersionProvider.class,
    description = "A polite, fast web crawler that fetches every reachable page in scope exactly once.",
    footer = {"%nRun 'sievecrawl COMMAND --help' for a command's options."})
final class SievecrawlCommand implements Runnable {
  /** The commands, in the order help lists them ({@link Cli} adds them: all, or only the one a command line runs). */
  static final java.util.List<Class<?>> COMMANDS = java.util.List.of(CrawlCommand.class, ResumeCommand.class,
      RecrawlCommand.class, JoinCommand.class, RemoveCommand.class, PlanCommand.class, BenchCommand.class,
      WaczCommand.class, CompletionCommand.class);

  @picocli.CommandLine.Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    java.util.List<String> commands = java.util.List.copyOf(spec.subcommands().keySet());
    throw new picocli.CommandLine.ParameterException(spec.commandLine(), "a command is required: "
        + String.join(", ", commands.subList(0, commands.size() - 1)) + " or " + commands.get(commands.size() - 1));
  }

  /** Prints {@code sievecrawl VERSION} and the Java runtime. */
  static final class VersionProvider implements picocli.CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"sievecrawl " + Version.get(),
          "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"};
    }
  }
}
