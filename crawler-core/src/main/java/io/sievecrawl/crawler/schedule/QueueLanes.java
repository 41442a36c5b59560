package io.sievecrawl.crawler.schedule;

import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.QueueKeys;
import java.util.Collection;

/**
 * The frontier's queues as the scheduler takes them: an origin's own queue and its lanes ({@link QueueKeys}: a page's
 * requisites wait in a lane of their origin) are checked out into one {@link ActiveOrigin}, paced as one, and its
 * lanes are served before its own queue, so that what a page needs is fetched soon after the page. Guarded by the
 * scheduler's lock.
 *
 * <p>Once {@linkplain #closeMainQueues() the origins' own queues close} (the page limit was reached), only lanes are
 * served: own queues that come out of the line go back into it, and the lanes are {@linkplain #drained drained} when
 * none is checked out, none has a request out, and a whole turn of the line showed none.
 */
final class QueueLanes<T> {
  /*
   * Finding lanes in the line once own queues are closed: the frontier hands out the line's first queue; an own queue
   * goes back to the end of the line, and the first one put back marks the turn. When it comes round again, no lane
   * was in line: nothing more is asked of the line until a lane may have joined it (an offer of a lane's task, or a
   * lane released with tasks left), so waiting workers do not walk the line again and again.
   */
  private final Frontier<T> frontier;
  private boolean mainClosed;
  private boolean lineWithoutLanes; // a whole turn of the line showed no lane, and none may have joined it since

  QueueLanes(Frontier<T> frontier) {
    this.frontier = frontier;
  }

  /**
   * Checks the first queue of the frontier's line out, and returns its key (an origin's or a lane's); {@code null}
   * when none is in line (with own queues closed: when no lane is).
   */
  String nextQueue() {
    if (!mainClosed) {
      return frontier.nextQueue();
    }
    if (lineWithoutLanes) {
      return null;
    }
    String firstPutBack = null;
    while (true) {
      String key = frontier.nextQueue();
      if (key == null) {
        lineWithoutLanes = firstPutBack == null;
        return null;
      }
      if (QueueKeys.isLane(key)) {
        return key;
      }
      frontier.releaseQueue(key);
      if (key.equals(firstPutBack)) {
        lineWithoutLanes = true;
        return null;
      }
      if (firstPutBack == null) {
        firstPutBack = key;
      }
    }
  }

  /** The next task of {@code o}: from its lanes first, then from its own queue while that is open. */
  Claim<T> poll(ActiveOrigin<T> o) {
    for (int i = 0; i < o.queueCount(); i++) {
      String key = o.queue(i);
      if (mainClosed && !QueueKeys.isLane(key)) {
        continue;
      }
      Claim<T> claim = frontier.poll(key);
      if (claim != null) {
        return claim;
      }
    }
    return null;
  }

  /** Gives every queue of {@code o} back to the frontier's line. */
  void release(ActiveOrigin<T> o) {
    for (int i = 0; i < o.queueCount(); i++) {
      String key = o.queue(i);
      frontier.releaseQueue(key);
      if (QueueKeys.isLane(key)) {
        lineWithoutLanes = false; // it may have tasks left
      }
    }
    o.clearQueues();
  }

  /** A lane's task was admitted: the lane may be in line now. */
  void laneOffered() {
    lineWithoutLanes = false;
  }

  /** From now on only lanes are served. */
  void closeMainQueues() {
    mainClosed = true;
  }

  boolean mainClosed() {
    return mainClosed;
  }

  /**
   * Whether, own queues closed, no lane's task is left: none in line, none checked out, none out or held for a retry.
   */
  boolean drained(Collection<ActiveOrigin<T>> active) {
    if (!mainClosed) {
      return false;
    }
    for (ActiveOrigin<T> o : active) {
      if (o.inFlight > 0 || o.retryCount() > 0 || o.hasLane()) {
        return false;
      }
    }
    return nextQueueFindsNoLane();
  }

  private boolean nextQueueFindsNoLane() {
    if (lineWithoutLanes) {
      return true;
    }
    String key = nextQueue();
    if (key == null) {
      return true;
    }
    frontier.releaseQueue(key); // a lane after all: back in line, for a worker to check it out
    lineWithoutLanes = false;
    return false;
  }
}
