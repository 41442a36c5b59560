package io.sievecrawl.crawler.schedule;

import java.util.Collection;

/**
 * Where the origins at hand stand, for a progress line ({@link HostScheduler#snapshot()}).
 *
 * @param active origins at hand (checked out of the frontier)
 * @param due of those, origins that may start a request now
 * @param waitingOnDelay origins waiting out their politeness delay (or Crawl-delay)
 * @param heldBack origins paused (429, 503, Retry-After, robots.txt awaited or unreachable) or backing off
 * @param retries tasks held here to be tried again
 */
public record SchedulerSnapshot(int active, int due, int waitingOnDelay, int heldBack, int retries) {

  /** The snapshot of {@code active} at the ticker's time {@code now}, under the scheduler's lock. */
  static <T> SchedulerSnapshot of(Collection<ActiveOrigin<T>> active, long now) {
    int dueNow = 0;
    int waiting = 0;
    int heldBack = 0;
    int retries = 0;
    for (ActiveOrigin<T> o : active) {
      retries += o.retryCount();
      if (o.pace.isHeldBack(now)) {
        heldBack++;
      } else if (o.inHeap && o.nextStart - now <= 0) {
        dueNow++;
      } else if (o.inHeap) {
        waiting++;
      }
    }
    return new SchedulerSnapshot(active.size(), dueNow, waiting, heldBack, retries);
  }
}
