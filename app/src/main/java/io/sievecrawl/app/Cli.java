package io.sievecrawl.app;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/** Builds the picocli command line with every handler wired, for {@link Main} and for tests alike. */
final class Cli {
  /*
   * picocli builds a command's model by reflection the first time (annotations read, proxies and method handles
   * made, in the interpreter): the models of all nine commands took about 0.3 s of CPU before a crawl could start, a
   * fifth of a short crawl's wall time. A command line that starts with a command's name gets that command's model
   * only; anything else (help, a version, a mistyped command, completion, which describes them all) gets them all.
   */
  private Cli() {}

  /** Runs {@code args} with the models of the commands it needs and returns the exit code. */
  static int run(Terminal terminal, Clocks clocks, String... args) {
    return create(terminal, clocks, commandsFor(args)).execute(args);
  }

  /** The command line with every command: for help, completion and documentation. */
  static CommandLine create(Terminal terminal, Clocks clocks) {
    return create(terminal, clocks, SievecrawlCommand.COMMANDS);
  }

  /** The command {@code args} starts with, alone, unless it describes the others; otherwise every command. */
  static List<Class<?>> commandsFor(String... args) {
    if (args.length > 0) {
      for (Class<?> command : SievecrawlCommand.COMMANDS) {
        if (command != CompletionCommand.class
            && command.getAnnotation(CommandLine.Command.class).name().equals(args[0])) {
          return java.util.List.of(command);
        }
      }
    }
    return SievecrawlCommand.COMMANDS;
  }

  private static CommandLine create(Terminal terminal, Clocks clocks, List<Class<?>> commands) {
    CommandFactory factory = new CommandFactory(terminal, clocks);
    CommandLine cli = new CommandLine(new SievecrawlCommand(), factory);
    for (Class<?> command : commands) {
      cli.addSubcommand(new CommandLine(command, factory)); // before the settings below, which apply to them too
    }
    cli.setOut(new PrintWriter(terminal.out(), true));
    // On a terminal, error lines are wrapped at words to its width, as warnings and the summary are.
    cli.setErr(new PrintWriter(terminal.interactive()
        ? new StatusLine(terminal.err(), true, TerminalWidth.ofTty(clocks.ticker())::columns).logStream()
        : terminal.err(), true));
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    cli.setParameterExceptionHandler(Cli::usageError);
    cli.setExecutionExceptionHandler(Cli::executionError);
    listExitCodes(cli);
    return cli;
  }

  /** Every command's help ends with the exit codes it can end with. */
  private static void listExitCodes(CommandLine cmd) {
    cmd.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n")
        .exitCodeList(ExitCodes.helpFor(cmd.getCommandName()));
    cmd.getSubcommands().values().forEach(Cli::listExitCodes);
  }

  /** Wrong usage: one line, a hint, exit code {@link ExitCodes#USAGE}. */
  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine cmd = e.getCommandLine();
    PrintWriter err = cmd.getErr();
    String seeds = seedsInsteadOfACommand(e, args);
    if (seeds != null) {
      err.println("sievecrawl: '" + seeds + "' is not a command; to crawl from it, run: " + CommandName.get()
          + " crawl " + seeds);
      return ExitCodes.USAGE;
    }
    err.println("sievecrawl: " + e.getMessage());
    CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
    err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help'.");
    return ExitCodes.USAGE;
  }

  /**
   * The first argument when it names a seed file or a URL where a command should be ({@code sievecrawl seeds.txt}:
   * a URL, a path, a name with a dot, or a file that exists), not a mistyped command ({@code sievecrawl craw}, which
   * picocli offers corrections for); else {@code null}.
   */
  private static String seedsInsteadOfACommand(CommandLine.ParameterException e, String[] args) {
    if (!(e instanceof CommandLine.UnmatchedArgumentException) || e.getCommandLine().getParent() != null
        || args.length == 0 || args[0].startsWith("-")) {
      return null;
    }
    String first = args[0];
    boolean url = first.regionMatches(true, 0, "http://", 0, 7) || first.regionMatches(true, 0, "https://", 0, 8);
    return url || first.indexOf('.') >= 0 || first.indexOf('/') >= 0 || exists(first) ? first : null;
  }

  private static boolean exists(String file) {
    try {
      return java.nio.file.Files.exists(java.nio.file.Path.of(file));
    } catch (java.nio.file.InvalidPathException e) {
      return false;
    }
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
      if (type == CompletionCommand.class) {
        return type.cast(new CompletionCommand(terminal));
      }
      if (type == WaczCommand.class) {
        return type.cast(new WaczCommand(terminal, clocks));
      }
      return CommandLine.defaultFactory().create(type);
    }
  }
}
