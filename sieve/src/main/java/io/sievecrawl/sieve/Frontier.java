package io.sievecrawl.sieve;

import java.io.IOException;

/**
 * The crawl frontier: tasks admitted once through a URL filter, handed out in arrival order, and acknowledged one
 * by one when done.
 *
 * <p>A task is <em>admitted</em> by {@link #offer} when the filter has not seen its URL; it then waits in the
 * frontier until {@link #poll} hands it out as a {@link Claim}. A claim stays <em>in flight</em> until the caller
 * {@linkplain #complete completes} it, after offering whatever the task produced (its links), or
 * {@linkplain #requeue requeues} it. Because completion names the task, a frontier that survives its process (on
 * disk, in Redis) hands out again every task that was claimed and never completed.
 *
 * <p>The frontier is {@linkplain #isFinished() finished} when nothing waits and nothing is in flight. Every method
 * is thread-safe. A frontier that cannot keep its state throws {@link FrontierFailure} from the call that found out,
 * and from every later one.
 *
 * <p>Implementations: {@link Sieve} (in memory), {@link io.sievecrawl.sieve.disk.DiskFrontier} (append-only log on
 * disk, bounded heap, survives kill -9).
 *
 * @param <T> the task type; each task carries the URL it is sieved on
 */
public interface Frontier<T> extends AutoCloseable {

  /**
   * Offers {@code task}: returns {@code true} if its URL was new to the filter and the task is now queued,
   * {@code false} if the filter has seen the URL or believes so (a false positive). Never waits for takers.
   */
  boolean offer(T task);

  /**
   * Hands out the oldest waiting task without blocking, or returns {@code null} if none waits or the frontier was
   * {@linkplain #stop() stopped}. The claim is in flight until {@link #complete} or {@link #requeue}.
   */
  Claim<T> poll();

  /**
   * As {@link #poll}, from the part of a {@linkplain #isShared() shared} frontier that holds the tasks of
   * {@code shardKey} (an origin): its oldest waiting task there, which may be of another key of the same part, or
   * {@code null} when none waits there. A frontier of one queue hands out its oldest task, as {@code poll} does.
   */
  default Claim<T> pollFrom(String shardKey) {
    return poll();
  }

  /** Acknowledges a claimed task as done: it will not be handed out again, not even after a restart. */
  void complete(Claim<T> claim);

  /**
   * Puts a claimed task back at the tail of the frontier, still admitted (it does not pass the filter again), and
   * returns its new claim identity for when it comes round again: larger than every identity handed out before, so
   * a caller can tell when it has gone round the whole frontier. For a task that cannot be worked on yet.
   */
  long requeue(Claim<T> claim);

  /**
   * The caller gives {@code claim} up without completing it (a stop, the page limit, a failure, or a claim this
   * process no longer {@linkplain #owns owns}): it stays unacknowledged, to be done again by a later run or by the
   * process that owns it now.
   */
  default void abandon(Claim<T> claim) {}

  /** Whether nothing waits and nothing is in flight; {@code true} once stopped. */
  boolean isFinished();

  /** Stops handing out tasks: {@link #poll} returns {@code null} from now on. Offers are still admitted. */
  void stop();

  /** A snapshot of the counters and the filter's state. */
  SieveStats stats();

  /**
   * Offers each task; returns which were admitted, by their index in {@code tasks}. A frontier across the network
   * sends them in one round trip, so a page's links should be offered together.
   */
  default java.util.BitSet offerAll(java.util.List<T> tasks) {
    java.util.BitSet admitted = new java.util.BitSet(tasks.size());
    for (int i = 0; i < tasks.size(); i++) {
      if (offer(tasks.get(i))) {
        admitted.set(i);
      }
    }
    return admitted;
  }

  /**
   * Whether this process may still work on {@code claim}: false when a shared frontier has handed the claim's
   * share of the work to another process meanwhile (the claim is then left alone, not completed).
   */
  default boolean owns(Claim<T> claim) {
    return true;
  }

  /**
   * Whether other processes add tasks to this frontier too, so that what this process offered is not all that
   * waits in it.
   */
  default boolean isShared() {
    return false;
  }

  /**
   * Makes everything admitted and acknowledged so far durable, so that a restart resumes from here; for an
   * in-memory frontier this does nothing.
   */
  default void checkpoint() throws IOException {}

  /** Releases files and connections; tasks not completed stay for the next run where the frontier is durable. */
  @Override
  default void close() throws IOException {}
}
