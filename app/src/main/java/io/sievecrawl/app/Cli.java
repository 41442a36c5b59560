package io.sievecrawl.app;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Builds the picocli command line with every handler wired, for {@link Main} and for tests alike. */
final class Cli {
  private Cli() {}

  static CommandLine create(Terminal terminal, Clocks clocks) {
    CommandLine cli = new CommandLine(new SievecrawlCommand(), new CommandFactory(terminal, clocks));
    cli.setOut(new PrintWriter(terminal.out(), true));
    cli.setErr(new PrintWriter(terminal.err(), true));
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    cli.setParameterExceptionHandler(Cli::usageError);
    cli.setExecutionExceptionHandler(Cli::executionError);
    listExitCodes(cli);
    return cli;
  }

  /** Every command's help ends with the exit codes. */
  private static void listExitCodes(CommandLine cmd) {
    cmd.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCodes.HELP);
    cmd.getSubcommands().values().forEach(Cli::listExitCodes);
  }

  /** Wrong usage: one line, a hint, exit code {@link ExitCodes#USAGE}. */
  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine cmd = e.getCommandLine();
    PrintWriter err = cmd.getErr();
    err.println("sievecrawl: " + e.getMessage());
    CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
    err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help'.");
    return ExitCodes.USAGE;
  }

  /** A user error is its message and exit code; anything else is an internal error, with a trace only on request. */
  private static int executionError(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
    PrintWriter err = cmd.getErr();
    if (e instanceof UserError user) {
      for (String line : user.getMessage().split("\n")) {
        err.println("sievecrawl: " + line);
      }
      return user.exitCode();
    }
    err.println("sievecrawl: internal error: " + e);
    if (wantsStackTrace(parsed)) {
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      err.print(trace);
    } else {
      err.println("Run again with --stacktrace for details.");
    }
    return ExitCodes.INTERNAL;
  }

  private static boolean wantsStackTrace(CommandLine.ParseResult parsed) {
    for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--stacktrace") || p.hasMatchedOption("--verbose")) {
        return true;
      }
    }
    return false;
  }

  /** Hands every command the terminal, and those that read the time the clocks. */
  private record CommandFactory(Terminal terminal, Clocks clocks) implements CommandLine.IFactory {
    @Override
    public <K> K create(Class<K> type) throws Exception {
      if (type == CrawlCommand.class) {
        return type.cast(new CrawlCommand(terminal, clocks));
      }
      if (type == PlanCommand.class) {
        return type.cast(new PlanCommand(terminal));
      }
      if (type == JoinCommand.class) {
        return type.cast(new JoinCommand(terminal, clocks));
      }
      if (type == ResumeCommand.class) {
        return type.cast(new ResumeCommand(terminal, clocks));
      }
      if (type == RecrawlCommand.class) {
        return type.cast(new RecrawlCommand(terminal, clocks));
      }
      if (type == BenchCommand.class) {
        return type.cast(new BenchCommand(terminal, clocks));
      }
      if (type == RemoveCommand.class) {
        return type.cast(new RemoveCommand(terminal));
      }
      if (type == WaczCommand.class) {
        return type.cast(new WaczCommand(terminal, clocks));
      }
      return CommandLine.defaultFactory().create(type);
    }
  }
}
