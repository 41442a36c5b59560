package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every bad input gives one line per problem, a documented exit code, and never a stack trace. */
class CommandLineErrorsTest {
  @TempDir
  Path dir;

  private Path file(String name, String text) throws IOException {
    Path path = dir.resolve(name);
    Files.writeString(path, text);
    return path;
  }

  private static void assertNoStackTrace(Cmd cmd) {
    assertFalse(cmd.err().contains("\tat ") || cmd.err().contains("Exception:"), cmd.toString());
  }

  @Test
  void helpListsTheCommandsAndEveryExitCode() {
    for (String[] args : new String[][] {{"--help"}, {"crawl", "--help"}, {"plan", "--help"}, {"bench", "--help"}}) {
      Cmd cmd = Cmd.run(args);
      assertEquals(ExitCodes.OK, cmd.exitCode(), cmd.toString());
      assertTrue(cmd.out().contains("Exit codes:"), cmd.toString());
      for (String code : ExitCodes.helpFor(args.length == 1 ? "sievecrawl" : args[0]).keySet()) {
        assertTrue(cmd.out().lines().anyMatch(l -> l.trim().startsWith(code + " ")), code + " in " + cmd);
      }
    }
  }

  @Test
  void aSeedFileWhereTheCommandGoesSuggestsCrawl() throws IOException {
    Path seeds = file("seeds.txt", "https://example.com/\n");
    for (String argument : List.of(seeds.toString(), "https://example.com/", "seeds.txt")) {
      Cmd cmd = Cmd.run(argument, "-o", "x.jsonl");
      assertEquals(ExitCodes.USAGE, cmd.exitCode(), cmd.toString());
      assertEquals("sievecrawl: '" + argument + "' is not a command; to crawl from it, run: sievecrawl crawl "
          + argument + "\n", cmd.err());
    }
    Cmd typo = Cmd.run("craw", "seeds.txt");
    assertTrue(typo.err().contains("crawl"), "a mistyped command gets picocli's suggestion: " + typo);
    assertTrue(typo.err().startsWith("sievecrawl: Unmatched argument"), typo.toString());
  }

  @Test
  void onATerminalAnErrorIsWrappedAtWords() {
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    String missing = dir.resolve("a-seed-file-with-a-name-long-enough-to-need-a-second-line.txt").toString();
    int code = Cli.create(new Terminal(new java.io.ByteArrayInputStream(new byte[0]), System.out,
        new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8), true), Clocks.system())
        .execute("crawl", missing, "--log-file", dir.resolve("log").toString());
    assertEquals(ExitCodes.SEEDS, code);
    int columns = TerminalWidth.ofTty(Clocks.system().ticker()).columns();
    List<String> lines = err.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList();
    assertTrue(lines.stream().allMatch(l -> l.length() <= columns || !l.strip().contains(" ")), lines.toString());
    assertEquals("sievecrawl: seed file not found: " + missing, String.join(" ", lines.stream().map(String::strip)
        .toList()), "no word split, none lost");
  }

  @Test
  void aSeedWithAPortButNoSchemeSuggestsHttp() throws IOException {
    Path seeds = file("seeds.txt", "localhost:18081/docs\nexample.com/docs\n");
    Cmd cmd = Cmd.run("crawl", seeds.toString(), "--strict-seeds", "--log-file", dir.resolve("log").toString());
    assertEquals(ExitCodes.SEEDS, cmd.exitCode(), cmd.toString());
    assertTrue(cmd.err().contains("seeds.txt:1: invalid seed 'localhost:18081/docs': unsupported scheme 'localhost'"
        + " (did you mean http://localhost:18081/docs ?)"), cmd.toString());
    assertTrue(cmd.err().contains("(did you mean https://example.com/docs ?)"), cmd.toString());
    Cmd argument = Cmd.run("crawl", "localhost:18081/docs", "--log-file", dir.resolve("log").toString());
    assertEquals("sievecrawl: seed file not found: localhost:18081/docs (a URL needs its scheme: did you mean"
        + " http://localhost:18081/docs ?)\n", argument.err());
  }

  @Test
  void versionNamesTheProduct() {
    Cmd cmd = Cmd.run("--version");
    assertEquals(0, cmd.exitCode());
    assertTrue(cmd.out().startsWith("sievecrawl "), cmd.out());
    assertEquals(0, Cmd.run("crawl", "--version").exitCode());
  }

  @Test
  void anUnknownOptionIsAUsageError() {
    Cmd cmd = Cmd.run("crawl", "seeds.txt", "--concurrancy", "4");
    assertEquals(ExitCodes.USAGE, cmd.exitCode());
    assertTrue(cmd.err().startsWith("sievecrawl: Unknown options: '--concurrancy', '4'"), cmd.toString());
    assertTrue(cmd.err().contains("--concurrency"), "suggests the right option: " + cmd);
    assertNoStackTrace(cmd);
  }

  @Test
  void aCommandIsRequired() {
    Cmd cmd = Cmd.run();
    assertEquals(ExitCodes.USAGE, cmd.exitCode());
    assertTrue(cmd.err().startsWith("sievecrawl: a command is required: crawl, resume, recrawl, join, remove,"
        + " plan, bench, wacz or completion\n"), cmd.toString());
  }

  @Test
  void missingSeedsArgumentIsAUsageError() {
    Cmd cmd = Cmd.run("crawl");
    assertEquals(ExitCodes.USAGE, cmd.exitCode());
    assertEquals("sievecrawl: missing SEEDS: a file of seed URLs, or '-' for standard input\n", cmd.err());
  }

  @Test
  void aMissingSeedFileIsOneLineAndExitCode4() {
    Cmd cmd = Cmd.run("crawl", dir.resolve("nope.txt").toString(), "--log-file", dir.resolve("log").toString());
    assertEquals(ExitCodes.SEEDS, cmd.exitCode());
    assertEquals("sievecrawl: seed file not found: " + dir.resolve("nope.txt") + "\n", cmd.err());
  }

  @Test
  void aSeedFileWithoutValidUrlsIsExitCode4AndNamesEveryBadLine() throws IOException {
    Path seeds = file("seeds.txt", "# only comments and junk\n\nexample.com\nftp://example.com/\n");
    Cmd cmd = Cmd.run("crawl", seeds.toString(), "--log-file", dir.resolve("log").toString());
    assertEquals(ExitCodes.SEEDS, cmd.exitCode(), cmd.toString());
    assertTrue(cmd.err().contains("WARN: " + seeds + ":3: skipped seed 'example.com': not an absolute URL (no scheme)"
        + " (did you mean https://example.com ?)"), cmd.toString());
    assertTrue(cmd.err().contains(seeds + ":4: skipped seed 'ftp://example.com/': unsupported scheme 'ftp'"), cmd.toString());
    assertTrue(cmd.err().endsWith("sievecrawl: no valid seed URL in " + seeds
        + " (one absolute http or https URL per line; # starts a comment)\n"), cmd.toString());
  }

  @Test
  void aSeedsUserAndPasswordAreSaidNotToBeSentAndTheResultsFileMustNotBeTheLog() throws IOException {
    Path seeds = file("seeds.txt", "http://ann:s3cret@127.0.0.1:9/\n");
    Path log = dir.resolve("log");
    Cmd same = Cmd.run("crawl", seeds.toString(), "-o", log.toString(), "--log-file", log.toString());
    assertEquals(ExitCodes.USAGE, same.exitCode(), same.toString());
    assertTrue(same.err().contains("WARN: " + seeds + ":1: the user name and password in 'http://127.0.0.1:9/' are"
        + " not sent: the crawler sends no credentials from URLs; give an Authorization header (--header) instead"),
        same.err());
    assertFalse(same.err().contains("s3cret"), "the password is not echoed");
    assertTrue(same.err().endsWith("sievecrawl: -o and --log-file both name " + log + ": results and log lines would"
        + " interleave in it; give the log another file\n"), same.err());
  }

  @Test
  void aDamagedStateFileIsOneLine() throws IOException {
    Path job = dir.resolve("job");
    Cmd crawl = Cmd.run("crawl", file("seeds.txt", "http://127.0.0.1:9/\n").toString(), "--job", job.toString(), "-o",
        dir.resolve("out.jsonl").toString(), "--log-file", dir.resolve("log").toString(), "--max-pages", "1");
    Path manifest = job.resolve("manifest.json");
    Files.writeString(manifest, Files.readString(manifest).replaceAll("\"status\" : \"[A-Z_]+\"",
        "\"status\" : \"STOPPED\"")); // a crawl to resume
    Files.writeString(job.resolve("state.json"), "{\"runs\": 1, \"fetched\": ");
    Cmd resume = Cmd.run("resume", job.toString(), "--log-file", dir.resolve("log").toString());
    assertEquals(ExitCodes.JOB, resume.exitCode(), crawl + "\n" + resume);
    assertEquals(1, resume.err().lines().count(), resume.err());
    assertTrue(resume.err().startsWith("sievecrawl: " + job.resolve("state.json") + ": damaged ("), resume.err());
  }

  @Test
  void strictSeedsTurnsASkippedLineIntoAnError() throws IOException {
    Path seeds = file("seeds.txt", "http://127.0.0.1:9/\nnot a url\n");
    Cmd cmd = Cmd.run("crawl", seeds.toString(), "--strict-seeds", "--log-file", dir.resolve("log").toString());
    assertEquals(ExitCodes.SEEDS, cmd.exitCode());
    assertEquals("sievecrawl: " + seeds + ":2: invalid seed 'not a url': not an absolute URL (no scheme)\n",
        cmd.err(), "no hint of https://not a url, which is no URL either");
  }

  @Test
  void everyConfigProblemIsReportedAtOnceWithFileLineKeyValueAndRange() throws IOException {
    Path config = file("crawl.conf", "[filter]\nn = 0\np = 0.9\n[politeness]\ndealy = 1s\n");
    Cmd cmd = Cmd.run("crawl", "seeds.txt", "-c", config.toString(), "--concurrency", "0");
    assertEquals(ExitCodes.CONFIG, cmd.exitCode());
    assertEquals(String.join("\n",
        "sievecrawl: " + config + ":2: filter.n = 0: must be between 1 and 100G",
        "sievecrawl: " + config + ":3: filter.p = 0.9: must be between 1e-10 and 0.5",
        "sievecrawl: " + config + ":5: politeness.dealy = 1s: unknown key; did you mean politeness.delay?",
        "sievecrawl: --concurrency: crawl.concurrency = 0: must be between 1 and 10,000") + "\n", cmd.err());
  }

  @Test
  void aMissingConfigFileIsExitCode3() {
    Cmd cmd = Cmd.run("crawl", "seeds.txt", "-c", dir.resolve("none.conf").toString());
    assertEquals(ExitCodes.CONFIG, cmd.exitCode());
    assertEquals("sievecrawl: config file not found: " + dir.resolve("none.conf") + "\n", cmd.err());
  }

  @Test
  void setRejectsUnknownKeysWithASuggestion() {
    Cmd cmd = Cmd.run("crawl", "seeds.txt", "--set", "robots.obay=false", "--set", "nonsense");
    assertEquals(ExitCodes.CONFIG, cmd.exitCode());
    assertEquals("sievecrawl: --set: robots.obay = false: unknown key; did you mean robots.obey?\n"
        + "sievecrawl: --set: nonsense: expected KEY=VALUE\n", cmd.err());
  }

  @Test
  void countsAcceptTheSuffixedAndScientificForms() {
    for (String n : new String[] {"10000000", "10M", "1e7"}) {
      Cmd cmd = Cmd.run("crawl", "--print-settings", "-n", n);
      assertTrue(cmd.out().contains("filter.n = 10M    # --expected-urls"), cmd.toString());
    }
  }

  @Test
  void anUnwritableOutputIsExitCode5() throws IOException {
    Path seeds = file("seeds.txt", "http://127.0.0.1:9/\n");
    Cmd cmd = Cmd.run("crawl", seeds.toString(), "-o", dir.resolve("no/such/dir/out.jsonl").toString(),
        "--log-file", dir.resolve("log").toString());
    assertEquals(ExitCodes.OUTPUT, cmd.exitCode());
    assertTrue(cmd.err().startsWith("sievecrawl: cannot write results to "), cmd.toString());
    assertNoStackTrace(cmd);
  }

  @Test
  void anUnwritableReportOrWarcFolderStopsTheCrawlBeforeTheOldResultsAreEmptied() throws IOException {
    Path seeds = file("seeds.txt", "http://127.0.0.1:9/\n");
    Path results = file("keep.jsonl", "{\"old\":1}\n");
    Path missing = dir.resolve("no/such/dir");
    Path notAFolder = file("plain-file", "x");
    List<List<String>> outputs = List.of(List.of("--log-skipped", missing.resolve("skipped.jsonl").toString()),
        List.of("--stats-json", missing.resolve("stats.json").toString()),
        List.of("--stats-json", dir.toString()),
        List.of("--set", "warc.dir=" + notAFolder.resolve("warc")));
    for (List<String> output : outputs) {
      List<String> args = new java.util.ArrayList<>(List.of("crawl", seeds.toString(), "-o", results.toString(),
          "--overwrite", "--job", dir.resolve("job").toString(), "--log-file", dir.resolve("log").toString()));
      args.addAll(output);
      Cmd cmd = Cmd.run(args.toArray(String[]::new));
      assertEquals(ExitCodes.OUTPUT, cmd.exitCode(), cmd.toString());
      assertTrue(cmd.err().startsWith("sievecrawl: cannot write "), cmd.toString());
      assertEquals(1, cmd.err().lines().count(), cmd.toString());
      assertEquals("{\"old\":1}\n", Files.readString(results), "the old results are kept: " + output);
      assertTrue(Files.notExists(dir.resolve("job")), "no crawl directory is made: " + output);
    }
  }

  @Test
  void planReportsBothBadArguments() {
    Cmd cmd = Cmd.run("plan", "-n", "zero", "-p", "1");
    assertEquals(ExitCodes.CONFIG, cmd.exitCode());
    assertEquals("sievecrawl: -n zero: expected a whole number such as 10000000, 10M or 1e7\n"
        + "sievecrawl: -p 1: must be between 1e-10 and 0.5\n", cmd.err());
  }

  @Test
  void aHostileSeedFileIsReadSafely(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    Cmd zero = Cmd.run("crawl", "/dev/zero", "--job", dir.resolve("j").toString(), "-o", dir.resolve("o").toString(),
        "--log-file", dir.resolve("log").toString());
    assertEquals(ExitCodes.SEEDS, zero.exitCode(), zero.toString());
    assertTrue(zero.err().contains("runs on for more than 16 MB without ending"), zero.err());

    StringBuilder bad = new StringBuilder("\u001b]0;pwned\u0007\n");
    for (int i = 0; i < 50; i++) {
      bad.append("not a url ").append(i).append('\n');
    }
    java.nio.file.Path seeds = dir.resolve("seeds.txt");
    java.nio.file.Files.write(seeds, concat(bad.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8),
        new byte[] {(byte) 0xff, (byte) 0xfe, '\n'}));
    Cmd cmd = Cmd.run("crawl", seeds.toString(), "--job", dir.resolve("j").toString(), "-o",
        dir.resolve("o").toString(), "--log-file", dir.resolve("log").toString());
    assertEquals(ExitCodes.SEEDS, cmd.exitCode(), cmd.toString());
    assertFalse(cmd.err().contains("\u001b"), "no escape sequence reaches the terminal");
    assertTrue(cmd.err().contains("'\\x1B]0;pwned\\x07'"), cmd.err());
    assertTrue(cmd.err().contains("... and 32 more lines like these"), cmd.err());
    assertTrue(cmd.err().lines().count() < 30, "warnings are capped");
  }

  /** Random bytes (a seed file that is {@code /dev/urandom}) end the read after a run of lines without a URL. */
  @Test
  void randomBytesAreNoSeedFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    byte[] noise = new byte[4 << 20];
    new java.util.Random(42).nextBytes(noise);
    java.nio.file.Path seeds = dir.resolve("seeds.bin");
    java.nio.file.Files.write(seeds, concat("https://example.com/\n".getBytes(java.nio.charset.StandardCharsets.UTF_8),
        noise));
    Cmd cmd = Cmd.run("crawl", seeds.toString(), "--job", dir.resolve("j").toString(), "-o",
        dir.resolve("o").toString(), "--log-file", dir.resolve("log").toString());
    assertEquals(ExitCodes.SEEDS, cmd.exitCode(), cmd.toString());
    assertTrue(cmd.err().matches("(?s)sievecrawl: .*seeds.bin: 10,000 lines in a row up to line [0-9,]+ hold no URL:"
        + " not a file of seed URLs.*"), cmd.err());
    assertFalse(java.nio.file.Files.exists(dir.resolve("j")), "no crawl directory");
    try (var left = java.nio.file.Files.list(dir)) {
      assertEquals(java.util.List.of("log", "seeds.bin"), left.map(f -> f.getFileName().toString()).sorted().toList(),
          "the seeds read so far are not left behind");
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  @Test
  void aFilterTooLargeForTheHeapOrForAnyArrayIsASettingsError() {
    Cmd huge = Cmd.run("crawl", "https://example.com/", "-n", "10G");
    assertEquals(ExitCodes.CONFIG, huge.exitCode(), huge.toString());
    assertTrue(huge.err().startsWith("sievecrawl: filter.n = 10G at filter.p = 0.001 needs a larger URL filter"),
        huge.err());
    Cmd heap = Cmd.run("crawl", "https://example.com/", "-n", "5G");
    assertEquals(ExitCodes.CONFIG, heap.exitCode(), heap.toString());
    assertTrue(heap.err().contains("heap") && heap.err().contains("is too small for the crawl: the URL filter for"
        + " n = 5G at p = 0.001 takes 9,404 MiB") && heap.err().contains("SIEVECRAWL_OPTS=-Xmx"), heap.err());
  }

}
