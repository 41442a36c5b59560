package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.config.Setting;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** What the help says: options under headings, each setting's default as the setting has it, each command's codes. */
class HelpTest {
  private static final Pattern SETTING_DEFAULT = Pattern.compile("\\(([a-z]+\\.[a-z-]+); default ([^,;)]+)");

  @Test
  void crawlHelpGroupsItsOptionsUnderHeadings() {
    Cmd cmd = Cmd.run("crawl", "--help");
    List<String> headings = cmd.out().lines().filter(l -> !l.isEmpty() && !l.startsWith(" ") && l.endsWith(":"))
        .toList();
    assertEquals(List.of("Settings:", "Scope:", "Politeness and speed:", "Limits and the URL filter:",
        "Output:", "Page records:", "Reports:", "Archive:", "Shared crawls (agents on one or more machines):",
        "Network:", "Log and console:", "Exit codes:"), headings, cmd.out());
    assertTrue(cmd.out().replaceAll("\\s+", " ").contains("or one http(s) URL, crawled as the only seed"),
        "a URL works as SEEDS: " + cmd);
  }

  @Test
  void everyOptionOfASettingShowsThatSettingsDefault() {
    CommandLine cli = Cli.create(new Terminal(System.in, System.out, System.err, false), Clocks.system());
    int checked = 0;
    for (String command : List.of("crawl", "resume", "join", "bench")) {
      for (OptionSpec option : cli.getSubcommands().get(command).getCommandSpec().options()) {
        String description = String.join(" ", option.description());
        Matcher m = SETTING_DEFAULT.matcher(description);
        if (!m.find()) {
          assertTrue(!description.matches(".*\\([a-z]+\\.[a-z-]+[;)].*") || option.longestName().equals("--delay"),
              command + " " + option.longestName() + " names a setting without its default: " + description);
          continue;
        }
        Setting<?> setting = Setting.forKey(m.group(1)).orElseThrow(() -> new AssertionError(m.group(1)));
        String expected = setting.defaultText().isEmpty() ? "none" : setting.defaultText();
        if (setting == Setting.USER_AGENT) {
          expected = "sievecrawl/VERSION";
        }
        assertEquals(expected, m.group(2).strip(), command + " " + option.longestName());
        checked++;
      }
    }
    assertTrue(checked >= 4 * 14, "options checked: " + checked);
  }

  @Test
  void aCommandLineGetsTheModelOfTheCommandItRunsOnlyAndItsHelpIsTheSameAsWithEveryCommand() {
    CommandLine all = Cli.create(new Terminal(System.in, System.out, System.err, false), Clocks.system());
    assertEquals(SievecrawlCommand.COMMANDS.size(), all.getSubcommands().size());
    for (Map.Entry<String, CommandLine> command : all.getSubcommands().entrySet()) {
      String name = command.getKey();
      List<Class<?>> built = Cli.commandsFor(name, "seeds.txt", "--max-pages", "5");
      if (name.equals("completion")) {
        assertEquals(SievecrawlCommand.COMMANDS, built, "completion describes every command");
      } else {
        assertEquals(List.of(command.getValue().getCommandSpec().userObject().getClass()), built, name);
      }
      Cmd help = Cmd.run(name, "--help");
      assertEquals(0, help.exitCode(), help.toString());
      assertEquals(command.getValue().getUsageMessage(CommandLine.Help.Ansi.OFF), help.out(), name);
    }
    for (String[] args : List.of(new String[0], new String[] {"--help"}, new String[] {"--version"},
        new String[] {"craw", "seeds.txt"}, new String[] {"seeds.txt"}, new String[] {"-h", "crawl"})) {
      assertEquals(SievecrawlCommand.COMMANDS, Cli.commandsFor(args), List.of(args).toString());
    }
    assertEquals(all.getUsageMessage(CommandLine.Help.Ansi.OFF), Cmd.run("--help").out());
  }

  @Test
  void planWaczAndRemoveListOnlyTheirOwnExitCodes() {
    Map<String, List<String>> codes = Map.of("plan", List.of("0", "1", "2", "3"), "wacz", List.of("0", "1", "2", "5",
        "7"), "remove", List.of("0", "1", "2", "9"));
    codes.forEach((command, expected) -> {
      Cmd cmd = Cmd.run(command, "--help");
      List<String> listed = new ArrayList<>();
      boolean inCodes = false;
      for (String line : cmd.out().lines().toList()) {
        if (line.equals("Exit codes:")) {
          inCodes = true;
        } else if (inCodes && line.matches("  [0-9]+ .*")) {
          listed.add(line.strip().split(" ")[0]);
        }
      }
      assertEquals(expected, listed, command + ": " + cmd.out());
    });
  }
}
