package io.sievecrawl.sieve.disk;

import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Ticker;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The process {@link DiskFrontierKillIT} kills: opens the frontier (a queue per host) in {@code args[0]}, then
 * offers URLs from index {@code args[1]} on (with {@code args[2]} "confirmed": through a filter of n = 2,000 that an
 * exact store confirms, so that most answers are settled by the store), checks queues out and releases them, claims and completes tasks out of
 * order and checkpoints now and then, forever. It prints a line after each call has returned: {@code A i} (URL i
 * admitted), {@code P url} (claimed), {@code C url} (completed).
 */
public final class FrontierKillChild {
  private FrontierKillChild() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int next = Integer.parseInt(args[1]);
    Random random = new Random(next);
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, "UTF-8");
    boolean confirmed = args.length > 2 && args[2].equals("confirmed");
    DiskFrontier<String> frontier = DiskFrontier.open(dir, confirmed ? DiskFrontierKillIT.CONFIRMED_N : 100_000,
        0.001, Strings.CODEC, s -> s, Strings::host, Strings.quietOptions(16 * 1024)
            .withSyncInterval(java.time.Duration.ofMillis(50)).withConfirmation(confirmed), Ticker.SYSTEM);
    ArrayDeque<Claim<String>> inFlight = new ArrayDeque<>();
    List<String> checkedOut = new ArrayList<>();
    for (long step = 0; ; step++) {
      int offers = random.nextInt(4);
      for (int i = 0; i < offers; i++) {
        int index = random.nextInt(10) == 0 ? random.nextInt(next + 1) : next++; // some duplicates
        if (frontier.offer(Strings.url(index))) {
          out.println("A " + index);
        }
      }
      if (checkedOut.isEmpty() || random.nextInt(4) == 0) {
        String queue = frontier.nextQueue();
        if (queue != null) {
          checkedOut.add(queue);
        }
      }
      Claim<String> claim = null;
      if (!checkedOut.isEmpty()) {
        String queue = checkedOut.get(random.nextInt(checkedOut.size()));
        claim = frontier.poll(queue);
        if (claim == null || random.nextInt(8) == 0) {
          checkedOut.remove(queue);
          frontier.releaseQueue(queue);
        }
      }
      if (claim != null) {
        inFlight.add(claim);
        out.println("P " + claim.task());
      }
      if (inFlight.size() > 8 || (claim == null && !inFlight.isEmpty())) {
        Claim<String> done = random.nextBoolean() ? inFlight.pollFirst() : inFlight.pollLast();
        frontier.complete(done);
        out.println("C " + done.task());
      }
      if (step % 3_000 == 2_999) {
        frontier.checkpoint();
      }
    }
  }
}
