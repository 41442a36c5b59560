package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sievecrawl completion bash}: a script bash accepts, whose completion function, called as bash calls it on
 * Tab (COMP_WORDS, COMP_CWORD, COMP_LINE set), offers the commands, options and values it should.
 */
@DisabledOnOs(OS.WINDOWS)
class CompletionCommandTest {
  @TempDir
  Path dir;
  private Path script;

  @BeforeEach
  void writeScript() throws IOException {
    Cmd cmd = Cmd.run("completion", "bash");
    assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
    assertEquals("", cmd.err());
    script = Files.writeString(dir.resolve("sievecrawl-completion.bash"), cmd.out());
  }

  @Test
  void bashAcceptsTheScript() throws Exception {
    Result syntax = bash("bash -n " + quoted(script));
    assertEquals(0, syntax.exitCode(), syntax.output());
    assertEquals("", syntax.output());
  }

  @Test
  void completesCommandsOptionsAndValues() throws Exception {
    Files.writeString(dir.resolve("seeds.txt"), "https://example.org/\n");
    String commands = String.join(" ", Cli.create(new Terminal(System.in, System.out, System.err, false),
        Clocks.system()).getSubcommands().keySet());
    List<String> offered = complete(
        "sievecrawl ",
        "sievecrawl re",
        "sievecrawl crawl --max-d",
        "sievecrawl crawl --scope ",
        "sievecrawl resume --scope d",
        "sievecrawl crawl -c " + dir + "/se",
        "sievecrawl completion ",
        "sievecrawl plan -",
        "sievecrawl bench --pa");
    assertEquals(List.of(
        commands,
        "resume recrawl remove",
        "--max-depth",
        "host domain any",
        "domain",
        dir + "/seeds.txt",
        "bash",
        "-h --help -V --version -n --expected-urls -p --fpp",
        "--pages --pages-per-site"), offered);
    assertTrue(commands.contains("recrawl") && commands.contains("completion"), commands);
  }

  /** Where the script knows no values (a seed file, a URL), it offers none and leaves bash to complete file names. */
  @Test
  void leavesFileNamesToBashWhereItKnowsNoValues() throws Exception {
    assertFalse(Files.readString(script).contains("+o default"), "nothing turns bash's own completion off");
    Result registered = bash("source " + quoted(script) + " && complete -p sievecrawl");
    assertEquals("complete -o default -F _complete_sievecrawl sievecrawl", registered.output().strip());
    assertEquals(List.of("", ""), complete("sievecrawl crawl se", "sievecrawl crawl -o res"));
  }

  @Test
  void anotherShellIsAUsageError() {
    Cmd cmd = Cmd.run("completion", "fish");
    assertEquals(ExitCodes.USAGE, cmd.exitCode(), cmd.toString());
    assertTrue(cmd.err().contains("expected one of [bash]"), cmd.toString());
  }

  /**
   * What the completion function offers for each command line typed so far (a trailing space starts a new, empty
   * word), the words space-separated, one string per line.
   */
  private List<String> complete(String... typed) throws Exception {
    StringBuilder probes = new StringBuilder("source ").append(quoted(script)).append('\n').append("""
        probe() {
          COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
          _complete_sievecrawl 2>/dev/null
          printf '[%s]\\n' "${COMPREPLY[*]}"
        }
        """);
    for (String line : typed) {
      probes.append("probe");
      for (String word : line.split(" ", -1)) {
        probes.append(' ').append(quoted(word));
      }
      probes.append('\n');
    }
    Result result = bash(probes.toString());
    assertEquals(0, result.exitCode(), result.output());
    List<String> offered = new ArrayList<>();
    for (String line : result.output().lines().toList()) {
      assertTrue(line.startsWith("[") && line.endsWith("]"), result.output());
      offered.add(line.substring(1, line.length() - 1));
    }
    return offered;
  }

  private record Result(int exitCode, String output) {}

  private Result bash(String commands) throws Exception {
    Path output = dir.resolve("bash-output.txt");
    Process bash = new ProcessBuilder("bash", "--norc", "--noprofile", "-c", commands).directory(dir.toFile())
        .redirectErrorStream(true).redirectOutput(output.toFile()).start();
    assertTrue(bash.waitFor(60, TimeUnit.SECONDS), "bash did not finish");
    return new Result(bash.exitValue(), Files.readString(output));
  }

  private static String quoted(Object word) {
    return "'" + word.toString().replace("'", "'\\''") + "'";
  }
}
