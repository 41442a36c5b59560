package io.sievecrawl.app;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;

/**
 * The user's reference in {@code app/docs}, generated from the code it describes: the command line from the picocli
 * model ({@link CliReference}), the settings from the {@code Setting} table ({@link ConfigReference}), the exit codes
 * from {@link ExitCodes} ({@link ExitCodesReference}). {@code ReferenceDocsTest} fails when a committed file differs
 * from what the code now gives; {@link #REGENERATE} writes them again.
 *
 * <p>The text is the same on every machine: nothing is wrapped to a terminal's width and the version is written
 * {@code VERSION}.
 */
public final class ReferenceDocs {
  /** The command, run at the top of the repository, that writes the reference again. */
  static final String REGENERATE = "mvn -B -q -pl app -am -Pdocs process-test-classes";

  /** The first line of every generated file. */
  static final String GENERATED = "<!-- Generated from the code by app/src/test/java/io/sievecrawl/app/ReferenceDocs.java;"
      + " do not edit. Regenerate: " + REGENERATE + " -->\n";

  private ReferenceDocs() {}

  /** Each generated file, by its path in the app module, with its text. */
  static Map<Path, String> files() {
    CommandLine cli = cli();
    Map<Path, String> files = new LinkedHashMap<>();
    files.put(Path.of("docs/cli.md"), CliReference.markdown(cli));
    files.put(Path.of("docs/configuration.md"), ConfigReference.markdown(cli));
    files.put(Path.of("docs/exit-codes.md"), ExitCodesReference.markdown(cli));
    return files;
  }

  /** The command line as {@code Main} builds it, on streams that go nowhere: only its model is read. */
  private static CommandLine cli() {
    PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    return Cli.create(new Terminal(new ByteArrayInputStream(new byte[0]), nowhere, nowhere, false), Clocks.system());
  }

  /** Writes every generated file under the app module's folder {@code args[0]}, saying which ones changed. */
  public static void main(String[] args) throws IOException {
    Path app = Path.of(args.length > 0 ? args[0] : "app");
    for (Map.Entry<Path, String> file : files().entrySet()) {
      Path path = app.resolve(file.getKey());
      boolean same = Files.exists(path) && Files.readString(path).equals(file.getValue());
      if (!same) {
        Files.createDirectories(path.getParent());
        Files.writeString(path, file.getValue());
      }
      System.out.println((same ? "unchanged: " : "written:   ") + path);
    }
  }
}
