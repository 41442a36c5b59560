package io.sievecrawl.crawler.fetch;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import okhttp3.internal.concurrent.TaskRunner;

/**
 * Runs the upkeep of the crawl's connection pools (closing the connections idle too long, or beyond a pool's share)
 * on a clock of its own, at most a second late, instead of waking a thread for it every time a call hands its
 * connection back.
 */
final class PoolUpkeep implements TaskRunner.Backend {
  /*
   * Why. OkHttp schedules its pool's clean-up task for "now" whenever a connection becomes idle, that is after every
   * call, and wakes its task runner's coordinator thread to run it: a futex wake-up and a thread switch, two renames
   * of the thread (a prctl system call each) and a walk of the pool, for every page. Nothing in that clean-up is
   * urgent: a connection idle for half a minute may well wait another second to be closed, and a shard over its
   * share of idle connections by one or two for a second costs two file descriptors. So this backend never wakes the
   * coordinator, and the coordinator never sleeps longer than UPKEEP_MILLIS: the clean-up runs at most that late.
   *
   * How. The backend is OkHttp's own seam for its task runner (okhttp3.internal.concurrent: an internal API, tied to
   * the OkHttp version the build pins; ConnectionPoolsTest checks the behaviour). The task runner calls it holding
   * its own monitor, which is what waiting and notifying use, as OkHttp's RealBackend does. Its threads are daemons,
   * started on demand and gone after a minute idle, as OkHttp's are.
   */
  static final long UPKEEP_MILLIS = 1_000;

  private final ThreadPoolExecutor executor = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
      new SynchronousQueue<>(), runnable -> {
        Thread thread = new Thread(runnable, "sievecrawl connection upkeep");
        thread.setDaemon(true);
        return thread;
      });

  /** A task runner for connection pools that runs their upkeep this way. */
  TaskRunner taskRunner() {
    return new TaskRunner(this, Logger.getLogger(TaskRunner.class.getName()));
  }

  /** Lets the upkeep under way finish and starts no more. */
  void shutdown() {
    executor.shutdown();
  }

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public void coordinatorNotify(TaskRunner taskRunner) {
    // not woken: it looks again within UPKEEP_MILLIS
  }

  @Override
  public void coordinatorWait(TaskRunner taskRunner, long nanos) {
    if (nanos > 0) {
      long millis = Math.min(UPKEEP_MILLIS, TimeUnit.NANOSECONDS.toMillis(nanos) + 1);
      try {
        taskRunner.wait(millis); // under the task runner's monitor, held by the caller; its loop checks again after
      } catch (InterruptedException e) {
        throwUnchecked(e); // as OkHttp's own backend throws it (declared in Kotlin only): the task runner stops
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> void throwUnchecked(Throwable e) throws E {
    throw (E) e;
  }

  @Override
  public <T> BlockingQueue<T> decorate(BlockingQueue<T> queue) {
    return queue;
  }

  @Override
  public void execute(TaskRunner taskRunner, Runnable runnable) {
    executor.execute(runnable);
  }
}
