package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sievecrawl.config.Setting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The committed reference in {@code app/docs} is what the code gives today. */
class ReferenceDocsTest {

  @Test
  void theCommittedReferenceIsWhatTheCodeGenerates() throws IOException {
    List<String> stale = new ArrayList<>();
    for (Map.Entry<Path, String> file : ReferenceDocs.files().entrySet()) {
      Path path = file.getKey();
      String committed = Files.exists(path) ? Files.readString(path) : null;
      if (!file.getValue().equals(committed)) {
        stale.add("app/" + path + (committed == null ? " is missing" : " is out of date, " + firstDifference(committed,
            file.getValue())));
      }
    }
    if (!stale.isEmpty()) {
      fail(String.join("\n", stale) + "\nThe reference is generated from the code (options, settings, exit codes)."
          + " Regenerate it at the top of the repository with:\n  " + ReferenceDocs.REGENERATE
          + "\nand commit app/docs with your change.");
    }
  }

  @Test
  void noGeneratedFileIsLeftBehindByARename() throws IOException {
    try (Stream<Path> docs = Files.list(Path.of("docs"))) {
      for (Path doc : docs.toList()) {
        if (Files.readString(doc).startsWith(ReferenceDocs.GENERATED.strip())) {
          assertTrue(ReferenceDocs.files().containsKey(doc), "app/" + doc + " says it is generated, but nothing"
              + " generates it any more: remove it");
        }
      }
    }
  }

  @Test
  void theReferenceNamesEverySettingEveryCommandAndEveryOption() {
    Map<Path, String> files = ReferenceDocs.files();
    String configuration = files.get(Path.of("docs/configuration.md"));
    for (Setting<?> setting : Setting.all()) {
      assertTrue(configuration.contains("| `" + setting.key() + "` |"), setting.key());
    }
    assertTrue(configuration.contains("| `filter.n` | `10M` | count, e.g. 10000000, 10M or 1e7; 1 to 100G |"
        + " Expected number of distinct URLs"), "default, type and range of filter.n");
    assertTrue(configuration.contains(" Flag: `--expected-urls`. |"), "the flag that sets filter.n");
    assertTrue(configuration.contains("| `fetch.user-agent` | `sievecrawl/VERSION` |"), "no version in the text");

    String cli = files.get(Path.of("docs/cli.md"));
    for (CommandLine command : Cli.create(new Terminal(System.in, System.out, System.err, false), Clocks.system())
        .getSubcommands().values()) {
      String name = command.getCommandName();
      int start = cli.indexOf("\n## sievecrawl " + name + "\n");
      assertTrue(start >= 0, "a section for " + name);
      int end = cli.indexOf("\n## ", start + 1);
      String section = cli.substring(start, end < 0 ? cli.length() : end);
      for (OptionSpec option : command.getCommandSpec().options()) {
        String primary = CliReference.primaryName(option);
        String shown = option.negatable() && primary.startsWith("--") // --[no-]requisites, as the help writes it
            ? option.command().negatableOptionTransformer().makeSynopsis(primary, option.command()) : primary;
        assertTrue(option.hidden() || Pattern.compile("[` ](" + Pattern.quote(primary) + "|" + Pattern.quote(shown)
            + ")[`=,]").matcher(section).find(), name + " " + primary);
      }
    }
    assertTrue(cli.contains("| `--max-depth=N` | Link hops from a seed; 0 fetches the seeds only (crawl.max-depth;"
        + " default 50). |"), "an option with its setting and default");
    assertTrue(cli.contains("| `--pages=N` | Pages in the site (default: 5000). |"), "a picocli default");

    String exitCodes = files.get(Path.of("docs/exit-codes.md"));
    assertTrue(exitCodes.contains("| `6` | bench: some page of the generated site was not fetched exactly once. |"
        + " `bench` |"), exitCodes);
    assertTrue(exitCodes.contains("| `2` | Wrong usage: "), exitCodes);
    assertTrue(exitCodes.contains(" | every command |\n| `1` |"), "0 is a code of every command: " + exitCodes);
    assertEquals(ExitCodes.HELP.keySet(), ExitCodes.EXPLAINED.keySet(), "every code is explained");
  }

  @Test
  void generatingTwiceGivesTheSameText() {
    assertEquals(ReferenceDocs.files(), ReferenceDocs.files());
  }

  /** {@code line 12 reads "..." where the code now gives "..."}. */
  private static String firstDifference(String committed, String generated) {
    List<String> was = committed.lines().toList();
    List<String> is = generated.lines().toList();
    for (int i = 0; i < Math.max(was.size(), is.size()); i++) {
      String a = i < was.size() ? was.get(i) : "(end of file)";
      String b = i < is.size() ? is.get(i) : "(end of file)";
      if (!a.equals(b)) {
        return "line " + (i + 1) + " reads\n    " + a + "\n  where the code now gives\n    " + b;
      }
    }
    return "in its line endings";
  }
}
