package io.sievecrawl.app;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs a sievecrawl command line in-process and keeps what it printed. */
record Cmd(int exitCode, String out, String err) {

  static Cmd run(String... args) {
    return runWithInput("", args);
  }

  static Cmd runWithInput(String stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Cli.run(new Terminal(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), false),
        Clocks.system(), args);
    return new Cmd(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- out ---\n" + out + "\n--- err ---\n" + err;
  }
}
