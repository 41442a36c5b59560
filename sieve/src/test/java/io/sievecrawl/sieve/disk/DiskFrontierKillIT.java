package io.sievecrawl.sieve.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.sieve.Frontiers;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a process that works a frontier with SIGKILL at random moments, reopens the frontier each time and checks
 * that nothing admitted was lost, nothing completed comes back, each queue keeps the order its tasks were admitted
 * in, and the filter still knows every admitted URL.
 *
 * <p>"Admitted" here means admitted before a later completion returned: offers wait in a buffer that complete()
 * writes out, because in a crawl a URL is offered by the page that links to it and is safe while that page is not
 * completed (the page is fetched again). An offer still in the buffer when the process dies must then be offerable
 * again: its URL must not be in the recovered filter.
 *
 * <p>Confirmed, the filter (n = 2,000 for some 50,000 URLs) takes nearly every URL for seen and the exact store
 * decides: every URL admitted or completed must be refused when offered again, and every URL lost with the process
 * admitted when offered again.
 */
class DiskFrontierKillIT {
  private static final int ROUNDS = 6;
  static final long CONFIRMED_N = 2_000;

  @ParameterizedTest(name = "confirmed = {0}")
  @ValueSource(booleans = {false, true})
  void aFrontierKilledAtAnyMomentLosesNothing(boolean confirmed, @TempDir Path dir) throws Exception {
    Random random = new Random(42);
    Set<Integer> admitted = new HashSet<>();
    Set<Integer> unsettled = new HashSet<>(); // admitted after the child's last completion
    Set<String> completed = new HashSet<>();
    Set<String> claimed = new HashSet<>();
    Map<String, Long> admissionOrder = new HashMap<>();
    int nextIndex = 0;
    for (int round = 0; round < ROUNDS; round++) {
      int linesBeforeKill = 2_000 + random.nextInt(20_000);
      int maxIndex = runAndKill(dir, nextIndex, linesBeforeKill, admitted, unsettled, claimed, completed,
          admissionOrder, confirmed);
      nextIndex = maxIndex + 1;

      try (DiskFrontier<String> frontier = confirmed ? Strings.openConfirmedByHost(dir, 16 * 1024, CONFIRMED_N)
          : Strings.openByHost(dir, 16 * 1024)) {
        List<String> waiting = new ArrayList<>();
        Map<String, List<String>> queues = Frontiers.drainByQueue(frontier);
        for (List<String> queue : queues.values()) {
          for (String url : queue) {
            if (!admissionOrder.containsKey(url)) {
              // Admitted, and made durable by the sync timer, in the moment between the offer and the line that
              // said so when the kill came: the last admission of all.
              admissionOrder.put(url, (long) admissionOrder.size());
              admitted.add(Integer.parseInt(url.substring(url.indexOf("/page/") + 6, url.indexOf('?'))));
            }
          }
        }
        for (Map.Entry<String, List<String>> queue : queues.entrySet()) {
          List<Long> order = queue.getValue().stream().map(admissionOrder::get).toList();
          assertEquals(order.stream().sorted().toList(), order, "round " + round + ": " + queue.getKey()
              + " hands its tasks out in another order than they were admitted in");
          waiting.addAll(queue.getValue());
        }
        Set<String> waitingSet = new HashSet<>(waiting);
        assertEquals(waiting.size(), waitingSet.size(), "round " + round + ": a task is waiting twice");
        for (String done : completed) {
          assertFalse(waitingSet.contains(done), "round " + round + ": completed task came back: " + done);
        }
        List<String> missing = new ArrayList<>();
        for (int index : admitted) {
          String url = Strings.url(index);
          if (!completed.contains(url) && !waitingSet.contains(url)) {
            missing.add(url);
          }
          assertTrue(frontier.filter().mightContain(url), "round " + round + ": the filter forgot " + url);
        }
        // The child completes one claim at a time and reports it after complete() returned: the kill may fall
        // between the two, leaving one claimed task done but unreported. Anything else missing is lost.
        assertTrue(missing.size() <= 1 && claimed.containsAll(missing),
            "round " + round + ": admitted URLs lost: " + missing);
        completed.addAll(missing);
        if (confirmed) {
          checkTheStore(frontier, round, admitted, unsettled, completed, waitingSet, admissionOrder);
          continue;
        }
        int knownButLost = 0;
        for (int index : unsettled) {
          String url = Strings.url(index);
          if (!waitingSet.contains(url) && frontier.filter().mightContain(url)) {
            knownButLost++;
          }
        }
        // Tens of unsettled URLs at a false-positive rate near 1e-5 (30k of n = 100k): one would be a
        // coincidence, more a bug (bits checkpointed without their record).
        assertTrue(knownButLost <= 1, "round " + round + ": " + knownButLost + " URLs lost from the queue but kept"
            + " in the filter");
        for (int index : unsettled) {
          if (!waitingSet.contains(Strings.url(index))) {
            admitted.remove(index); // lost with the process, as designed: the next child may admit it again
          }
        }
        unsettled.clear();
      } // closed without completing: the next child gets them again
    }
    assertTrue(completed.size() > 1_000, "the children did work: " + completed.size());
  }

  /**
   * The exact store knows every URL admitted before the kill (and refuses it) and none lost with the process (it
   * admits those again, and they wait from now on).
   */
  private static void checkTheStore(DiskFrontier<String> frontier, int round, Set<Integer> admitted,
      Set<Integer> unsettled, Set<String> completed, Set<String> waiting, Map<String, Long> admissionOrder) {
    assertTrue(frontier.isConfirmed());
    for (int index : admitted) {
      assertFalse(frontier.offer(Strings.url(index)), "round " + round + ": admitted twice: " + index);
    }
    for (String url : completed) {
      assertFalse(frontier.offer(url), "round " + round + ": a completed URL admitted again: " + url);
    }
    for (int index : unsettled) {
      String url = Strings.url(index);
      if (waiting.contains(url)) {
        assertFalse(frontier.offer(url), "round " + round + ": admitted twice: " + url);
        admitted.add(index);
      } else {
        assertTrue(frontier.offer(url), "round " + round + ": lost with the process, yet refused: " + url);
        admissionOrder.put(url, (long) admissionOrder.size());
        admitted.add(index);
      }
    }
    unsettled.clear();
  }

  /** Runs a child until it printed {@code lines} lines, SIGKILLs it, and returns the largest index it admitted. */
  private static int runAndKill(Path dir, int from, int lines, Set<Integer> admitted, Set<Integer> unsettled,
      Set<String> claimed, Set<String> completed, Map<String, Long> admissionOrder, boolean confirmed)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(javaBinary(), "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        FrontierKillChild.class.getName(), dir.toString(), Integer.toString(from), confirmed ? "confirmed" : "alone");
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    Process child = builder.start();
    int max = from - 1;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      for (int read = 0; (line = out.readLine()) != null; read++) {
        if (read == lines) {
          child.toHandle().destroyForcibly(); // SIGKILL; unlike Process.destroy it leaves the pipe readable
        }
        if (line.startsWith("A ")) {
          int index = Integer.parseInt(line.substring(2));
          unsettled.add(index);
          admissionOrder.put(Strings.url(index), (long) admissionOrder.size());
          max = Math.max(max, index);
        } else if (line.startsWith("P ")) {
          claimed.add(line.substring(2));
        } else if (line.startsWith("C ")) {
          completed.add(line.substring(2));
          admitted.addAll(unsettled);
          unsettled.clear();
        }
      }
      assertTrue(child.waitFor(1, TimeUnit.MINUTES));
      assertTrue(child.exitValue() != 0, "the child was killed, it did not end by itself");
    }
    return max;
  }

  private static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
