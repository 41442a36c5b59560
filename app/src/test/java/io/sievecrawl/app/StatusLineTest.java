package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StatusLineTest {
  private static final String LINE =
      "  not fetched:     robots 1,204, out-of-scope 3; left in the frontier for 'resume': 12";

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  @Test
  void onATerminalASummaryLineIsWrappedAtWordsToItsWidth() {
    new StatusLine(err, true, () -> 40).printWrapped(LINE);
    assertEquals("""
          not fetched:     robots 1,204,
              out-of-scope 3; left in the
              frontier for 'resume': 12
        """, written());
  }

  @Test
  void inALogOrAPipeASummaryLineIsLeftWhole() {
    new StatusLine(err, false, () -> 40).printWrapped(LINE);
    assertEquals(LINE + "\n", written());
  }

  @Test
  void theWidthIsAskedAgainEachTime() {
    AtomicInteger columns = new AtomicInteger(120);
    StatusLine status = new StatusLine(err, true, columns::get);
    assertEquals(120, status.columns());
    columns.set(60);
    assertEquals(60, status.columns());
    assertEquals(Integer.MAX_VALUE, new StatusLine(err, false, columns::get).columns());
  }

  @Test
  void onATerminalAWarningIsWrappedAtWordsLikeTheSummary() throws java.io.IOException {
    String warning = "WARN: stopping: finishing fetches in flight (press Ctrl-C again to quit at once;"
        + " 'sievecrawl resume sievecrawl-job-20261128-051200' continues either way)\n";
    new StatusLine(err, true, () -> 60).logStream().write(warning.getBytes(StandardCharsets.UTF_8));
    assertEquals("""
        WARN: stopping: finishing fetches in flight (press Ctrl-C
            again to quit at once; 'sievecrawl resume
            sievecrawl-job-20261128-051200' continues either way)
        """, written());
    bytes.reset();
    new StatusLine(err, false, () -> 60).logStream().write(warning.getBytes(StandardCharsets.UTF_8));
    assertEquals(warning, written(), "a log or a pipe gets it whole");
  }

  @Test
  void aLineOverTheTerminalsCurrentOneClearsItFirst() {
    new StatusLine(err, true, () -> 40).printOver("sievecrawl: stopped at once; continue with: sievecrawl resume job");
    assertEquals("\r\033[Ksievecrawl: stopped at once; continue\n    with: sievecrawl resume job\n", written(),
        "the ^C the terminal echoed is cleared");
  }

  private String written() {
    return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
  }
}
