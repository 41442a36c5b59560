package io.sievecrawl.crawler.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The CPU this JVM's threads have taken, split into its JIT compiler threads, its garbage collector and the rest,
 * read from {@code /proc/self/task/}{@code *}{@code /stat} by thread name (Linux only; elsewhere {@link #read()}
 * returns null). The JVM's own threads are not Java threads, so no MXBean sees them.
 */
public final class JvmThreadCpu {
  /*
   * A snapshot keeps each thread's ticks, so that two snapshots tell what happened between them: a thread that ended
   * in between loses what it did after the first snapshot (the JVM may stop a compiler thread it no longer needs).
   * With the serial collector, collections run on the "VM Thread", counted as the collector's: it also runs the
   * JVM's other safepoint work, which is little.
   */
  private static final Path TASKS = Path.of("/proc/self/task");
  private static final long TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux the JDK runs on

  /** A thread's kind, by the names HotSpot gives its threads. */
  enum Kind {
    JIT, GC, OTHER;

    static Kind of(String threadName) {
      if (threadName.startsWith("C1 CompilerThre") || threadName.startsWith("C2 CompilerThre")) {
        return JIT;
      }
      if (threadName.equals("VM Thread") || threadName.startsWith("GC Thread") || threadName.startsWith("G1 ")
          || threadName.startsWith("GC ") || threadName.startsWith("ZDriver") || threadName.startsWith("ZWorker")
          || threadName.startsWith("Shenandoah") || threadName.startsWith("ParGC")) {
        return GC;
      }
      return OTHER;
    }
  }

  /** CPU seconds by kind between two snapshots. */
  public record Split(double jitSeconds, double gcSeconds, double otherSeconds) {}

  private final Map<String, Long> ticksByThread;
  private final Map<String, Kind> kindByThread;

  private JvmThreadCpu(Map<String, Long> ticksByThread, Map<String, Kind> kindByThread) {
    this.ticksByThread = ticksByThread;
    this.kindByThread = kindByThread;
  }

  /** This process's threads now, or null where {@code /proc/self/task} cannot be read. */
  public static JvmThreadCpu read() {
    if (!Files.isDirectory(TASKS)) {
      return null;
    }
    Map<String, Long> ticks = new HashMap<>();
    Map<String, Kind> kinds = new HashMap<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
      for (Path task : tasks) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException gone) {
          continue; // the thread ended meanwhile
        }
        String id = task.getFileName().toString();
        ticks.put(id, ticksOf(stat));
        kinds.put(id, Kind.of(stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))));
      }
    } catch (IOException e) {
      return null;
    }
    return new JvmThreadCpu(ticks, kinds);
  }

  /** utime + stime of a {@code /proc/PID/task/TID/stat} line: fields 14 and 15, after the name in parentheses. */
  static long ticksOf(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  /** What the threads took since {@code earlier}, by kind. */
  public Split since(JvmThreadCpu earlier) {
    long[] byKind = new long[Kind.values().length];
    ticksByThread.forEach((id, now) -> {
      long before = earlier.ticksByThread.getOrDefault(id, 0L);
      byKind[kindByThread.get(id).ordinal()] += Math.max(0, now - before);
    });
    return new Split(byKind[Kind.JIT.ordinal()] / (double) TICKS_PER_SECOND,
        byKind[Kind.GC.ordinal()] / (double) TICKS_PER_SECOND, byKind[Kind.OTHER.ordinal()] / (double) TICKS_PER_SECOND);
  }
}
