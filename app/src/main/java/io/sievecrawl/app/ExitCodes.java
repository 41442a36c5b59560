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

  /**
   * Every code with what it means in full, for the reference ({@code app/docs/exit-codes.md}): the help's line says
   * what happened, this also says where to look and what is left. Each code of {@link #HELP} has one.
   */
  static final Map<String, String> EXPLAINED = explained();

  private static Map<String, String> explained() {
    Map<String, String> text = new LinkedHashMap<>();
    text.put(String.valueOf(OK), "The command did its work. A crawl that ran its course ends with 0 even when some"
        + " pages failed (404, timeouts, refused connections): those are counted in the summary and recorded in the"
        + " results, each with its status or error.");
    text.put(String.valueOf(INTERNAL), "An internal error, or an Error such as OutOfMemoryError ended the run (a"
        + " crawl can be resumed). Run again with --stacktrace and report it.");
    text.put(String.valueOf(USAGE), "Wrong usage: an unknown option or command, a missing or malformed argument, or"
        + " options that do not go together. The message says which, with the nearest option or command.");
    text.put(String.valueOf(CONFIG), "Invalid settings: a config file or flag value out of range, an unknown key, an"
        + " unreadable config file, or a URL filter too large for the heap. Every problem is listed, each with file,"
        + " line, key, value and allowed range.");
    text.put(String.valueOf(SEEDS), "No seeds: the seed file is missing or unreadable, or holds no valid URL (with"
        + " --strict-seeds, holds an invalid line).");
    text.put(String.valueOf(OUTPUT), "Cannot write the results, the log file, a report, the WARC or WACZ files or the"
        + " crawl directory; the message says why (permission, space, an existing file).");
    text.put(String.valueOf(BENCH_MISMATCH), "bench: some page of the generated site was not fetched exactly once.");
    text.put(String.valueOf(JOB), "The crawl directory cannot be used: missing, not a crawl directory, of another"
        + " format version, damaged (the message names the file), or in use by another process.");
    text.put(String.valueOf(NOTHING_REACHED), "Nothing fetched: the crawl had seeds (or work left) but no server"
        + " answered (refused, unknown host, TLS, robots.txt); the summary lists the origins given up and why.");
    text.put(String.valueOf(SHARED), "The shared crawl cannot be used: Redis unreachable (past"
        + " frontier.redis-outage-grace while crawling) or refusing the password, no crawl of that name, a finished"
        + " crawl's name, or its data gone from Redis.");
    text.put(String.valueOf(INTERRUPTED), "Interrupted by Ctrl-C, SIGTERM or SIGHUP: fetches in flight get 5 s to"
        + " finish, the results and the log are flushed, the summary is printed, and the crawl can be resumed. A"
        + " second Ctrl-C quits at once, after the results line being written.");
    return Collections.unmodifiableMap(text);
  }

  /** The codes {@code command} can end with, each with its meaning: the list its help shows. */
  static Map<String, String> helpFor(String command) {
    List<Integer> codes = switch (command) {
      case "plan" -> List.of(OK, INTERNAL, USAGE, CONFIG);
      case "completion" -> List.of(OK, INTERNAL, USAGE);
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
