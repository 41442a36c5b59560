package io.sievecrawl.sieve;

import java.io.IOException;
import java.util.BitSet;
import java.util.List;

/**
 * The crawl frontier: tasks admitted once through a URL filter into a FIFO queue per key (a task's origin), handed
 * out queue by queue, and acknowledged one by one when done.
 *
 * <p>A task is <em>admitted</em> by {@link #offer} when the filter has not seen its URL; it then waits at the tail
 * of its queue. A consumer (the scheduler) {@linkplain #nextQueue checks a queue out}, takes its tasks in admission
 * order with {@link #poll(String)} for as long as it likes, and {@linkplain #releaseQueue releases} it: a released
 * queue that still holds tasks goes to the back of the line of queues waiting to be checked out, so queues are
 * served round robin and one big queue never hides another. A claimed task stays <em>in flight</em> until the
 * caller {@linkplain #complete completes} it, after offering whatever the task produced (its links). Because
 * completion names the task, a frontier that survives its process (on disk, in Redis) hands out again every task
 * that was claimed and never completed.
 *
 * <p>The frontier is {@linkplain #isFinished() finished} when nothing waits and nothing is in flight. Every method
 * is thread-safe. A frontier that cannot keep its state throws {@link FrontierFailure} from the call that found out,
 * and from every later one.
 *
 * <p>Implementations: {@link Sieve} (in memory), {@link io.sievecrawl.sieve.disk.DiskFrontier} (a log on disk,
 * bounded heap, survives kill -9), {@link io.sievecrawl.sieve.redis.RedisFrontier} (shared by agents).
 *
 * @param <T> the task type; each task carries the URL it is sieved on and the key of its queue
 */
public interface Frontier<T> extends AutoCloseable {

  /**
   * Offers {@code task}: returns {@code true} if its URL was new to the filter and the task now waits at the tail of
   * its queue, {@code false} if the filter has seen the URL or believes so (a false positive). Never waits for takers.
   */
  boolean offer(T task);

  /**
   * Offers each task; returns which were admitted, by their index in {@code tasks}. A frontier across the network
   * sends them in one round trip, so a page's links should be offered together.
   */
  default BitSet offerAll(List<T> tasks) {
    BitSet admitted = new BitSet(tasks.size());
    for (int i = 0; i < tasks.size(); i++) {
      if (offer(tasks.get(i))) {
        admitted.set(i);
      }
    }
    return admitted;
  }

  /**
   * Checks out the queue that has waited longest among those holding tasks and not checked out, and returns its key;
   * {@code null} if there is none or the frontier was {@linkplain #stop() stopped}. Until it is
   * {@linkplain #releaseQueue released}, the queue is the caller's: offers to it do not put it back in line.
   */
  String nextQueue();

  /**
   * The oldest waiting task of the checked-out queue {@code key}, or {@code null} if none waits there now, the queue
   * is not checked out, or the frontier was stopped. The claim is in flight until {@link #complete} or
   * {@link #abandon}.
   */
  Claim<T> poll(String key);

  /**
   * Gives the checked-out queue {@code key} back: if tasks wait in it, it joins the back of the line for
   * {@link #nextQueue}; if none does, it leaves the line until an offer brings it one.
   */
  void releaseQueue(String key);

  /** Acknowledges a claimed task as done: it will not be handed out again, not even after a restart. */
  void complete(Claim<T> claim);

  /**
   * The caller gives {@code claim} up without completing it (a stop, the page limit, a failure, or a claim this
   * process no longer {@linkplain #owns owns}): it stays unacknowledged, to be done again by a later run or by the
   * process that owns it now.
   */
  default void abandon(Claim<T> claim) {}

  /** Whether nothing waits and nothing is in flight; {@code true} once stopped. */
  boolean isFinished();

  /** Stops handing out tasks: {@link #nextQueue} and {@link #poll} return {@code null} from now on. */
  void stop();

  /** A snapshot of the counters and the filter's state. */
  SieveStats stats();

  /**
   * Whether this process may still work on {@code claim}: false when a shared frontier has handed the claim's
   * share of the work to another process meanwhile (the claim is then left alone, not completed).
   */
  default boolean owns(Claim<T> claim) {
    return true;
  }

  /**
   * Whether other processes add tasks to this frontier too, so that queues may come into line without an offer
   * made here: a consumer should ask {@link #nextQueue} again now and then rather than wait for its own offers.
   */
  default boolean isShared() {
    return false;
  }

  /**
   * Says that the crawl's seeds are all offered. A shared frontier made by an agent with seeds is not
   * {@linkplain #isFinished finished} before this, so that an agent joining while they are read finds work to wait
   * for rather than an empty crawl.
   */
  default void seedsQueued() {}

  /**
   * Makes everything admitted and acknowledged so far durable, so that a restart resumes from here; for an
   * in-memory frontier this does nothing.
   */
  default void checkpoint() throws IOException {}

  /** Releases files and connections; tasks not completed stay for the next run where the frontier is durable. */
  @Override
  default void close() throws IOException {}
}
