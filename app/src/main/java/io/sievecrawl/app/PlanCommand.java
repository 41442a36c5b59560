package io.sievecrawl.app;

import io.sievecrawl.config.Setting;
import io.sievecrawl.config.Values;
import io.sievecrawl.sieve.BloomSizing;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sievecrawl plan -n N -p P}: the URL filter's size before a crawl. */
@Command(name = "plan", mixinStandardHelpOptions = true, versionProvider = SievecrawlCommand.VersionProvider.class,
    description = "Shows the URL filter's size for N expected URLs at false-positive rate P: bits, bytes, k, bits per"
        + " URL, and the expected false-positive rate at N and at 2N.")
final class PlanCommand implements Callable<Integer> {
  private final Terminal terminal;

  @Option(names = {"-n", "--expected-urls"}, required = true, paramLabel = "N",
      description = "Expected distinct URLs, e.g. 10000000, 10M or 1e7.")
  String n;

  @Option(names = {"-p", "--fpp"}, paramLabel = "P", description = "Target false-positive rate, e.g. 0.01 or 1%%;"
      + " the crawl's default (filter.p) when left out.")
  String p = Setting.FILTER_P.defaultText();

  @Option(names = "--stacktrace", hidden = true)
  boolean stacktrace;

  PlanCommand(Terminal terminal) {
    this.terminal = terminal;
  }

  @Override
  public Integer call() {
    java.util.List<String> problems = new java.util.ArrayList<>();
    long count = 0;
    double rate = 0;
    try {
      count = Setting.FILTER_N.parse(n);
    } catch (IllegalArgumentException e) {
      problems.add("-n " + n + ": " + e.getMessage());
    }
    try {
      rate = Setting.FILTER_P.parse(p);
    } catch (IllegalArgumentException e) {
      problems.add("-p " + p + ": " + e.getMessage());
    }
    if (!problems.isEmpty()) {
      throw new UserError(ExitCodes.CONFIG, String.join("\n", problems));
    }
    BloomSizing s;
    try {
      s = BloomSizing.of(count, rate);
    } catch (IllegalArgumentException e) {
      throw new UserError(ExitCodes.CONFIG, e.getMessage());
    }
    // On a terminal the lines are wrapped at words to its width (their continuations indented), as the summary is.
    java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
    PrintStream out = new PrintStream(text, true, java.nio.charset.StandardCharsets.UTF_8);
    out.printf(Locale.ROOT, "URL filter for n = %,d URLs at p = %s%n", count,
        java.math.BigDecimal.valueOf(rate).stripTrailingZeros().toPlainString());
    out.printf(Locale.ROOT, "  classical Bloom filter: %,d bits = %s, k = %d, %.2f bits per URL%n",
        s.classicalBits(), Values.formatSize(s.classicalBytes()), s.hashCount(),
        (double) s.classicalBits() / count);
    out.printf(Locale.ROOT, "  sievecrawl allocates:   %,d bits = %s, k = %d, %.2f bits per URL"
        + " (512-bit blocks, %+.1f%% over classical to keep the rate at p)%n",
        s.bits(), Values.formatSize(s.bytes()), s.hashCount(), s.bitsPerElement(), 100 * (s.overheadRatio() - 1));
    out.printf(Locale.ROOT, "  expected false-positive rate at n:  %.3g (classical %.3g)%n",
        s.expectedFppAt(count), s.classicalFppAt(count));
    out.printf(Locale.ROOT, "  expected false-positive rate at 2n: %.3g (classical %.3g)%n",
        s.expectedFppAt(2 * count), s.classicalFppAt(2 * count));
    out.printf(Locale.ROOT, "frontier on disk (the crawl directory): about %s per million queued URLs of %d"
        + " characters, each with its referrer of as many; the heap holds the filter, not the queue%n",
        Values.formatSize(FrontierDisk.bytesPerMillion()), FrontierDisk.TYPICAL_URL_LENGTH);
    out.printf(Locale.ROOT, "exact store (filter.confirm): 8 bytes on disk per URL admitted, %s at n; on the heap"
        + " at most a million recent URLs (about 24MB) between checkpoints%n", Values.formatSize(8 * count));
    out.println(FilterFit.heapLine(s, Runtime.getRuntime().maxMemory()));
    int columns = terminal.interactive() ? TerminalWidth.ofTty(Clocks.system().ticker()).columns() : Integer.MAX_VALUE;
    WordWrap.wrap(text.toString(java.nio.charset.StandardCharsets.UTF_8), columns).forEach(terminal.out()::println);
    terminal.out().flush();
    return ExitCodes.OK;
  }
}
