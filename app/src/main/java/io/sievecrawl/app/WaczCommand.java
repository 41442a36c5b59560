package io.sievecrawl.app;

import io.sievecrawl.config.ConfigFile;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.config.Version;
import io.sievecrawl.crawler.job.CrawlFiles;
import io.sievecrawl.crawler.job.WarcDirectories;
import io.sievecrawl.crawler.warc.WaczPackage;
import io.sievecrawl.crawler.warc.WarcDamagedException;
import io.sievecrawl.crawler.warc.WarcDirectory;
import io.sievecrawl.crawler.warc.WarcInUseException;
import io.sievecrawl.crawler.warc.WarcIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sievecrawl wacz DIR... -o FILE}: a crawl's WARC files packaged for replay tools, after the fact. */
@Command(name = "wacz", mixinStandardHelpOptions = true, versionProvider = SievecrawlCommand.VersionProvider.class,
    description = {"Packages the WARC files of a crawl as one WACZ 1.1.1 file, which ReplayWeb.page and pywb open"
        + " directly: the WARC files as they are, a CDXJ index, the list of pages, and SHA-256 digests of all.",
        "DIR is a WARC directory or a crawl directory: every WARC directory its runs wrote to (all its"
            + " generations', a recrawl's into another --warc included). Several DIRs go into one package. WARC files"
            + " a killed crawl left open are closed first, as 'resume' would; a directory a crawl is writing to now is"
            + " refused."})
final class WaczCommand implements Callable<Integer> {
  private final Terminal terminal;
  private final Clocks clocks;

  @Parameters(arity = "1..*", paramLabel = "DIR", description = "A WARC directory, or a crawl directory.")
  List<Path> dirs;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "The WACZ file to write (default: DIR.wacz, beside DIR).")
  Path output;

  @Option(names = "--overwrite", description = "Replace an existing FILE instead of refusing to start.")
  boolean overwrite;

  @Option(names = "--stacktrace", hidden = true)
  boolean stacktrace;

  WaczCommand(Terminal terminal, Clocks clocks) {
    this.terminal = terminal;
    this.clocks = clocks;
  }

  @Override
  public Integer call() {
    Set<Path> warcDirs = new LinkedHashSet<>();
    for (Path dir : dirs) {
      if (CrawlFiles.holdsCrawl(dir)) {
        OutputPaths.of(dir).file("-o", output).checkNotCrawlFiles();
      }
      warcDirs.addAll(warcDirectories(dir));
    }
    Path output = this.output != null ? this.output : defaultOutput(dirs.get(0));
    OutputCheck.file(output);
    if (Files.exists(output) && !overwrite) {
      throw new UserError(ExitCodes.OUTPUT, output + " exists: choose another name, or add --overwrite");
    }
    String named = String.join(" and ", warcDirs.stream().map(Path::toString).toList());
    try {
      int repaired = 0;
      boolean any = false;
      for (Path warcDir : warcDirs) {
        repaired += closeLeftovers(warcDir);
        any |= !WarcIndex.closedWarcs(warcDir).isEmpty();
      }
      if (!any) {
        throw new UserError(ExitCodes.JOB, named + " holds no WARC files (*.warc.gz)");
      }
      WaczPackage.Summary s = WaczPackage.write(List.copyOf(warcDirs), output, "sievecrawl " + Version.get(),
          clocks.wall(), describe(dirs.get(0)));
      terminal.out().printf(Locale.ROOT, "%s: %,d WARC files (%s%s), %,d index lines, %,d pages, %s in all%s%n",
          output, s.warcFiles(), io.sievecrawl.config.Values.formatSize(s.warcBytes()),
          warcDirs.size() > 1 ? " from " + warcDirs.size() + " directories" : "", s.indexLines(), s.pages(),
          io.sievecrawl.config.Values.formatSize(s.packageBytes()),
          repaired > 0 ? String.format(Locale.ROOT, "; %,d WARC files left open by a killed crawl were closed first",
              repaired) : "");
      return ExitCodes.OK;
    } catch (WarcDamagedException e) {
      throw new UserError(ExitCodes.JOB, e.getMessage() + "; nothing was packaged"); // the whole sentence
    } catch (IOException e) {
      throw new UserError(ExitCodes.OUTPUT, "cannot package " + named + " as " + output + ": " + Errors.reason(e));
    }
  }

  /** Closes the WARC files a killed crawl left open in {@code warcDir}; refuses one a crawl is writing to. */
  private static int closeLeftovers(Path warcDir) throws IOException {
    try {
      return WarcDirectory.closeLeftovers(warcDir);
    } catch (WarcInUseException e) {
      throw new UserError(ExitCodes.JOB, "cannot package " + warcDir + ": a crawl is writing to it: wait for it to"
          + " end");
    }
  }

  /** {@code DIR.wacz} beside DIR: {@code sievecrawl wacz my-crawl} writes {@code my-crawl.wacz}. */
  static Path defaultOutput(Path dir) {
    Path name = dir.toAbsolutePath().normalize().getFileName();
    String wacz = (name == null ? "crawl" : name.toString()) + ".wacz";
    Path parent = dir.normalize().getParent();
    return parent == null ? Path.of(wacz) : parent.resolve(wacz);
  }

  /**
   * What the package of {@code dir} says of itself: for a crawl directory, its name as the title and its first seed
   * as the page replay opens with; for a plain WARC folder, the defaults (its name, the page captured first).
   */
  static WaczPackage.Description describe(Path dir) {
    Path seeds = dir.resolve("seeds.txt");
    if (!Files.exists(dir.resolve("manifest.json")) || !Files.isRegularFile(seeds)) {
      return WaczPackage.Description.DEFAULT;
    }
    String title = dir.toAbsolutePath().normalize().getFileName().toString();
    try (java.io.BufferedReader lines = Files.newBufferedReader(seeds)) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (!line.isBlank()) {
          return new WaczPackage.Description(title, line.strip());
        }
      }
    } catch (IOException e) {
      // no main page then: replay opens the page captured first
    }
    return new WaczPackage.Description(title, null);
  }

  /**
   * DIR itself, or the WARC directories of the crawl directory DIR: those its runs recorded (every generation's),
   * and its warc.dir (a crawl directory of an older build records none).
   */
  private static List<Path> warcDirectories(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new UserError(ExitCodes.JOB, dir + ": no such directory");
    }
    if (!CrawlFiles.holdsCrawl(dir)) {
      return List.of(dir);
    }
    Path settings = CrawlFiles.settingsOf(dir);
    CrawlSettings.Builder builder = CrawlSettings.builder();
    Set<Path> found = new LinkedHashSet<>();
    try {
      found.addAll(WarcDirectories.of(dir));
      ConfigFile.load(settings, builder);
    } catch (IOException e) {
      throw new UserError(ExitCodes.JOB, "cannot read the crawl directory " + dir + ": " + Errors.reason(e));
    }
    String warcDir = builder.build().warc().dir();
    if (!warcDir.isEmpty()) {
      found.add(Path.of(warcDir).toAbsolutePath().normalize());
    }
    if (found.isEmpty()) {
      throw new UserError(ExitCodes.JOB, "the crawl in " + dir + " wrote no WARC files (its " + Setting.WARC_DIR.key()
          + " is empty)");
    }
    for (Path warc : found) {
      if (!Files.isDirectory(warc)) {
        throw new UserError(ExitCodes.JOB, "the crawl in " + dir + " wrote WARC files to " + warc + ", which is"
            + " gone: its revisits would find no capture; restore it, or name the WARC directories to package");
      }
    }
    return List.copyOf(found);
  }
}
