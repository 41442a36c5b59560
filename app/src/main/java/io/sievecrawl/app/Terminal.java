package io.sievecrawl.app;

import java.io.InputStream;
import java.io.PrintStream;

/**
 * The standard streams a command works with, so tests can run commands in-process.
 *
 * @param interactive whether standard error is a terminal (a live progress line is shown)
 */
record Terminal(InputStream in, PrintStream out, PrintStream err, boolean interactive) {}
