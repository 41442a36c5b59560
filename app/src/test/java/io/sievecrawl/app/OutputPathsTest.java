package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.bench.SyntheticSite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An output named where the crawl keeps its own files is refused before anything is written (exit 2, one line), for
 * every output option and every command that works a crawl directory; a WARC folder inside it is welcome.
 */
class OutputPathsTest {
  @TempDir
  Path dir;

  private Path job() {
    return dir.resolve("job");
  }

  private String log() {
    return dir.resolve("sievecrawl.log").toString();
  }

  @Test
  void aNewCrawlRefusesResultsOrReportsAmongTheFilesOfItsDirectoryBeforeMakingIt() {
    String seed = "http://127.0.0.1:9/";
    for (String[] flags : List.of(new String[] {"-o", "seeds.txt"}, new String[] {"-o", "manifest.json"},
        new String[] {"-o", "settings.conf"}, new String[] {"--stats-json", "manifest.json"},
        new String[] {"--log-skipped", "state.json"}, new String[] {"--log-file", "frontier/x.log"},
        new String[] {"--wacz", "visits-3.jsonl"}, new String[] {"--warc", "frontier"})) {
      List<String> args = new ArrayList<>(List.of("crawl", seed, "--job", job().toString()));
      args.addAll(List.of(flags[0], job().resolve(flags[1]).toString()));
      if (!flags[0].equals("--log-file")) {
        args.addAll(List.of("--log-file", log()));
      }
      if (!flags[0].equals("-o")) {
        args.addAll(List.of("-o", dir.resolve("out.jsonl").toString()));
      }
      Cmd cmd = Cmd.run(args.toArray(String[]::new));
      assertEquals(ExitCodes.USAGE, cmd.exitCode(), cmd.toString());
      assertEquals(1, cmd.err().lines().count(), cmd.toString());
      assertTrue(cmd.err().startsWith("sievecrawl: " + flags[0] + " " + job().resolve(flags[1]) + " is the "),
          cmd.err());
      assertTrue(cmd.err().contains(" of the crawl in " + job() + ", which the crawl writes and reads itself: give "
          + flags[0] + " another "), cmd.err());
      assertFalse(Files.exists(job()), "the directory, not yet made, is not made: " + String.join(" ", flags));
    }
  }

  @Test
  void anEmptyDirectoryForANewCrawlIsLeftEmpty() throws IOException {
    Files.createDirectories(job());
    Cmd cmd = Cmd.run("crawl", "http://127.0.0.1:9/", "--job", job().toString(), "-o",
        job().resolve("manifest.json").toString(), "--log-file", job().resolve("state.json").toString());
    assertEquals(ExitCodes.USAGE, cmd.exitCode(), cmd.toString());
    try (Stream<Path> files = Files.list(job())) {
      assertEquals(0, files.count(), "the log was not opened either");
    }
  }

  @Test
  void resumeAndRecrawlRefuseThemThroughLinksRelativePathsAndHardLinksAndTheCrawlStaysWhole() throws Exception {
    try (SyntheticSite site = SyntheticSite.start(30, 3)) {
      Path results = dir.resolve("results.jsonl");
      Cmd first = Cmd.run("crawl", site.rootUrl(), "--job", job().toString(), "-o", results.toString(), "--log-file",
          log(), "--max-pages", "5", "--delay", "0ms");
      assertEquals(ExitCodes.OK, first.exitCode(), first.toString());
      Map<Path, byte[]> before = contents(job());

      Path linkedDir = Files.createSymbolicLink(dir.resolve("link"), job());
      Path linkedFile = Files.createSymbolicLink(dir.resolve("stats.json"), job().resolve("manifest.json"));
      Path hard = Files.createLink(dir.resolve("hard.json"), job().resolve("state.json"));
      String relative = Path.of("").toAbsolutePath().relativize(job().resolve("settings.conf")).toString();
      List<List<String>> refused = List.of(
          List.of("resume", job().toString(), "--stats-json", job().resolve("manifest.json").toString()),
          List.of("resume", job().toString(), "--stats-json", linkedFile.toString()),
          List.of("resume", job().toString(), "--log-skipped", linkedDir.resolve("cookies.txt").toString()),
          List.of("resume", job().toString(), "--wacz", relative),
          List.of("resume", job().toString(), "--stats-json", hard.toString()),
          List.of("resume", linkedDir.toString(), "--log-file", job().resolve("lock").toString()),
          List.of("recrawl", job().toString(), "--stats-json", job().resolve("carried-1.txt").toString()),
          List.of("recrawl", job().toString(), "--log-file", job().resolve("frontier-1/recrawl.log").toString()),
          List.of("wacz", job().toString(), "-o", job().resolve("seeds.txt").toString()));
      for (List<String> args : refused) {
        List<String> all = new ArrayList<>(args);
        if (!args.contains("--log-file") && !args.get(0).equals("wacz")) {
          all.addAll(List.of("--log-file", log()));
        }
        Cmd cmd = Cmd.run(all.toArray(String[]::new));
        assertEquals(ExitCodes.USAGE, cmd.exitCode(), cmd.toString());
        assertEquals(1, cmd.err().lines().count(), cmd.toString());
        assertTrue(cmd.err().contains(", which the crawl writes and reads itself: give "), cmd.err());
      }
      assertEquals(before.keySet(), contents(job()).keySet());
      before.forEach((file, bytes) -> assertArrayEquals(bytes, contents(job()).get(file), file.toString()));

      Cmd resumed = Cmd.run("resume", job().toString(), "--log-file", log(), "--max-pages", "0", "--warc",
          job().resolve("warc").toString(), "--stats-json", dir.resolve("stats-real.json").toString());
      assertEquals(ExitCodes.OK, resumed.exitCode(), resumed.toString());
      List<String> records = Files.readAllLines(results); // with --warc, the pages' requisites too
      assertEquals(30, records.stream().filter(r -> r.contains("\"requisite\":false")).count(),
          "every page once; a WARC folder in the directory is fine");
      assertEquals(records.size(), records.stream().map(r -> r.substring(0, r.indexOf("\",\""))).distinct().count(),
          "each URL once");
      assertTrue(Files.isDirectory(job().resolve("warc")));
    }
  }

  @Test
  void twoOutputsNamingOneFileAreRefused() throws IOException {
    Path stats = dir.resolve("report.json");
    Cmd cmd = Cmd.run("crawl", "http://127.0.0.1:9/", "-o", dir.resolve("out.jsonl").toString(), "--log-file", log(),
        "--stats-json", stats.toString(), "--log-skipped", stats.toString());
    assertEquals(ExitCodes.USAGE, cmd.exitCode(), cmd.toString());
    assertEquals("sievecrawl: --stats-json and --log-skipped both name " + stats + ": each needs a file of its own\n",
        cmd.err());
    Path link = Files.createSymbolicLink(dir.resolve("log-link"), dir.resolve("out.jsonl"));
    Cmd linked = Cmd.run("crawl", "http://127.0.0.1:9/", "-o", dir.resolve("out.jsonl").toString(), "--log-file",
        link.toString());
    assertEquals(ExitCodes.USAGE, linked.exitCode(), linked.toString());
    assertTrue(linked.err().endsWith("results and log lines would interleave in it; give the log another file\n"),
        linked.err());
  }

  /** Every file under {@code root} with its bytes. */
  private static Map<Path, byte[]> contents(Path root) {
    Map<Path, byte[]> all = new TreeMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        all.put(root.relativize(file), Files.readAllBytes(file));
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return all;
  }
}
