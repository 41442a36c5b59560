package io.sievecrawl.app;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * The exit codes' reference ({@code app/docs/exit-codes.md}), from {@link ExitCodes}, the one place they are defined
 * (each code's full text, {@code EXPLAINED}), and from each command's help, which lists the codes that command can end
 * with.
 */
final class ExitCodesReference {
  private ExitCodesReference() {}

  static String markdown(CommandLine root) {
    List<CommandLine> commands = root.getSubcommands().values().stream()
        .filter(c -> !c.getCommandSpec().usageMessage().hidden()).toList();
    StringBuilder out = new StringBuilder(ReferenceDocs.GENERATED).append("""

        # Exit codes

        Every sievecrawl command ends with one of these codes. `sievecrawl --help` lists them all, each in a line, and
        each command's `--help` the ones it can end with. No command prints a stack trace unless asked with
        `--stacktrace` or `-v`.

        """);
    out.append(Markdown.header("code", "meaning", "commands"));
    for (Map.Entry<String, String> code : ExitCodes.HELP.entrySet()) {
      List<String> endingWithIt = new ArrayList<>();
      for (CommandLine command : commands) {
        if (command.getCommandSpec().usageMessage().exitCodeList().containsKey(code.getKey())) {
          endingWithIt.add(Markdown.code(command.getCommandName()));
        }
      }
      String explained = ExitCodes.EXPLAINED.get(code.getKey());
      if (explained == null) {
        throw new IllegalStateException("exit code " + code.getKey() + " has a line in ExitCodes.HELP but no text in"
            + " ExitCodes.EXPLAINED, which the reference shows");
      }
      out.append(Markdown.row(List.of(Markdown.code(code.getKey()), Markdown.text(explained),
          endingWithIt.size() == commands.size() ? "every command" : String.join(", ", endingWithIt))));
    }
    return out.toString();
  }
}
