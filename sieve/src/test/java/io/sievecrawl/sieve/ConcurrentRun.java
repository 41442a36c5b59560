package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs tasks on their own platform threads, released together, and fails the test if any task throws or they do
 * not all finish in time; on a timeout, the failure message holds every thread's stack.
 */
final class ConcurrentRun {
  private final List<Runnable> tasks = new ArrayList<>();

  ConcurrentRun add(int copies, Runnable task) {
    for (int i = 0; i < copies; i++) {
      tasks.add(task);
    }
    return this;
  }

  void run(long timeout, TimeUnit unit) throws InterruptedException {
    Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch finished = new CountDownLatch(tasks.size());
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < tasks.size(); i++) {
      Runnable task = tasks.get(i);
      Thread thread = new Thread(() -> {
        try {
          start.await();
          task.run();
        } catch (Throwable t) {
          failures.add(t);
        } finally {
          finished.countDown();
        }
      }, "concurrent-run-" + i);
      thread.setDaemon(true);
      thread.start();
      threads.add(thread);
    }
    start.countDown();
    if (!finished.await(timeout, unit)) {
      threads.forEach(Thread::interrupt);
      fail("tasks did not finish within " + timeout + " " + unit + "; threads:\n" + dumpAllThreads());
    }
    if (!failures.isEmpty()) {
      AssertionError error = new AssertionError(failures.size() + " task(s) failed", failures.peek());
      failures.stream().skip(1).forEach(error::addSuppressed);
      throw error;
    }
  }

  private static String dumpAllThreads() {
    StringBuilder out = new StringBuilder();
    for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
      out.append(info);
    }
    return out.toString();
  }
}
