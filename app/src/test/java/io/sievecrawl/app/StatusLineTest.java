package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StatusLineTest {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  @Test
  void theWidthIsAskedAgainEachTime() {
    AtomicInteger columns = new AtomicInteger(120);
    StatusLine status = new StatusLine(err, true, columns::get);
    assertEquals(120, status.columns());
    columns.set(60);
    assertEquals(60, status.columns());
    assertEquals(Integer.MAX_VALUE, new StatusLine(err, false, columns::get).columns());
  }
}
