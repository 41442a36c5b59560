package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CommandNameTest {
  @Test
  void theCommandAsTypedIsKeptAndQuotedWhereAShellNeedsIt() {
    assertEquals("app/target/sievecrawl", CommandName.typed("app/target/sievecrawl"));
    assertEquals("'/opt/my tools/sievecrawl'", CommandName.typed("/opt/my tools/sievecrawl"));
    assertEquals("sievecrawl", CommandName.typed(null), "not run by the launcher");
    assertEquals("sievecrawl", CommandName.typed("evil\u001b[2J"), "no control characters echoed");
  }
}
