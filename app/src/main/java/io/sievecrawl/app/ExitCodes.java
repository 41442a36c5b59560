package io.sievecrawl.app;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The exit codes of every sievecrawl command, listed in the help. */
public final class ExitCodes {
  /** The command did its job (a crawl may still have pages that failed: see the summary). */
  public static final int OK = 0;
  /** An unexpected internal error; run again with --stacktrace and report it. */
  public static final int INTERNAL = 1;
  /** Wrong command-line usage: unknown option, missing argument. */
  public static final int USAGE = 2;
  /** Invalid settings: a config file or flag value out of range, an unknown key, an unreadable config file. */
  public static final int CONFIG = 3;
  /** No seeds: the seed file is missing or unreadable, or holds no valid URL. */
  public static final int SEEDS = 4;
  /** Output could not be written (the results file or the log file). */
  public static final int OUTPUT = 5;
  /** A bench run did not fetch every page exactly once. */
  public static final int BENCH_MISMATCH = 6;
  /** The crawl directory cannot be used: missing, not a crawl directory, of another version, damaged, in use. */
  public static final int JOB = 7;
  /** The crawl had seeds (or work left) but reached nothing: no server answered (refused, unknown, TLS, robots). */
  public static final int NOTHING_REACHED = 8;
  /** A shared crawl cannot be used: Redis unreachable or refusing us, no crawl of that name, or its data lost. */
  public static final int SHARED = 9;
  /** Interrupted by Ctrl-C (SIGINT) or SIGTERM; the crawl was stopped gracefully. */
  public static final int INTERRUPTED = 130;

  /** Every code with its meaning, in the order the help lists them. */
  static final Map<String, String> HELP = helpList();

  private static Map<String, String> helpList() {
    Map<String, String> help = new LinkedHashMap<>();
    help.put(String.valueOf(OK), "success (pages that failed are counted in the summary, not here)");
    help.put(String.valueOf(INTERNAL), "internal error (run again with --stacktrace and report it)");
    help.put(String.valueOf(USAGE), "wrong usage (unknown option, missing or malformed argument)");
    help.put(String.valueOf(CONFIG), "invalid settings (config file or flag value, unknown key)");
    help.put(String.valueOf(SEEDS), "no seeds (seed file missing or unreadable, or no valid URL in it)");
    help.put(String.valueOf(OUTPUT), "cannot write the output or the log file");
    help.put(String.valueOf(BENCH_MISMATCH), "bench: some page was not fetched exactly once");
    help.put(String.valueOf(JOB), "crawl directory unusable (missing, not a crawl, another version, damaged)");
    help.put(String.valueOf(NOTHING_REACHED), "nothing fetched: no seed's server answered (the summary says why)");
    help.put(String.valueOf(SHARED), "shared crawl unusable: Redis unreachable or refusing, no such crawl, data lost");
    help.put(String.valueOf(INTERRUPTED), "interrupted (Ctrl-C, SIGTERM or SIGHUP); stopped gracefully, resumable");
    return Collections.unmodifiableMap(help);
  }

  /** The codes {@code command} can end with, each with its meaning: the list its help shows. */
  static Map<String, String> helpFor(String command) {
    List<Integer> codes = switch (command) {
      case "plan" -> List.of(OK, INTERNAL, USAGE, CONFIG);
      case "wacz" -> List.of(OK, INTERNAL, USAGE, OUTPUT, JOB);
      case "remove" -> List.of(OK, INTERNAL, USAGE, SHARED);
      case "bench" -> List.of(OK, INTERNAL, USAGE, CONFIG, OUTPUT, BENCH_MISMATCH);
      case "crawl", "resume", "recrawl", "join" -> List.of(OK, INTERNAL, USAGE, CONFIG, SEEDS, OUTPUT, JOB,
          NOTHING_REACHED, SHARED, INTERRUPTED);
      default -> null; // sievecrawl itself: every code
    };
    if (codes == null) {
      return HELP;
    }
    Map<String, String> help = new LinkedHashMap<>();
    codes.forEach(code -> help.put(String.valueOf(code), HELP.get(String.valueOf(code))));
    return Collections.unmodifiableMap(help);
  }

  private ExitCodes() {}
}
