package io.sievecrawl.crawler.schedule;

import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.Frontier;
import io.sievecrawl.sieve.QueueKeys;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;

/**
 * The frontier's queues as the scheduler takes them: an origin's own queue and its lanes ({@link QueueKeys}: a page's
 * requisites wait in a lane of their origin) are checked out into one {@link ActiveOrigin}, paced as one, and its
 * lanes are served before its own queue, so that what a page needs is fetched soon after the page. Guarded by the
 * scheduler's lock.
 *
 * <p>Once {@linkplain #closeMainQueues() the origins' own queues close} (the page limit was reached), only lanes are
 * served: own queues that come out of the line go back into it, and the lanes are {@linkplain #drained drained} when
 * none is checked out, none has a request out, and a whole turn of the line showed none.
 *
 * <p>Every call into the frontier goes through the scheduler's {@link Calls}, which lets its lock go around a shared
 * frontier's round trips; what this class knows may change meanwhile (see the note below).
 */
final class QueueLanes<T> {
  /*
   * Finding lanes in the line once own queues are closed: the frontier hands out the line's first queue; an own queue
   * goes back to the end of the line, and the first one put back marks the turn. When it comes round again, no lane
   * was in line: nothing more is asked of the line until a lane may have joined it (an offer of a lane's task, or a
   * lane released with tasks left), so waiting workers do not walk the line again and again. With a shared frontier
   * the lock is let go for each call, and another worker may offer or release a lane meanwhile: a turn counts as
   * showing no lane only if no such change came while it was walked (laneChanges).
   */
  private final Frontier<T> frontier;
  private final Calls calls;
  private boolean mainClosed;
  private boolean lineWithoutLanes; // a whole turn of the line showed no lane, and none may have joined it since
  private long laneChanges; // lanes offered or released: a walk of the line that saw one come cannot vouch for it

  /** Runs a call into the frontier for the scheduler, which holds its lock before and after. */
  interface Calls {
    <R> R call(Supplier<R> call);
  }

  QueueLanes(Frontier<T> frontier, Calls calls) {
    this.frontier = frontier;
    this.calls = calls;
  }

  /**
   * Checks the first queue of the frontier's line out, and returns its key (an origin's or a lane's); {@code null}
   * when none is in line (with own queues closed: when no lane is).
   */
  String nextQueue() {
    if (!mainClosed) {
      return calls.call(frontier::nextQueue);
    }
    if (lineWithoutLanes) {
      return null;
    }
    long changesBefore = laneChanges;
    String firstPutBack = null;
    while (true) {
      String key = calls.call(frontier::nextQueue);
      if (key == null) {
        lineWithoutLanes = firstPutBack == null && laneChanges == changesBefore;
        return null;
      }
      if (QueueKeys.isLane(key)) {
        return key;
      }
      release(key);
      if (key.equals(firstPutBack)) {
        lineWithoutLanes = laneChanges == changesBefore;
        return null;
      }
      if (firstPutBack == null) {
        firstPutBack = key;
      }
    }
  }

  /** The next task of {@code o}: from its lanes first, then from its own queue while that is open. */
  Claim<T> poll(ActiveOrigin<T> o) {
    for (String key : o.queues()) { // a copy: another worker may check a lane out for it while the lock is let go
      if (mainClosed && !QueueKeys.isLane(key)) {
        continue;
      }
      Claim<T> claim = calls.call(() -> frontier.poll(key));
      if (claim != null) {
        return claim;
      }
    }
    return null;
  }

  /** Gives every queue of {@code o} back to the frontier's line. */
  void release(ActiveOrigin<T> o) {
    List<String> keys = o.queues();
    o.clearQueues();
    for (String key : keys) {
      release(key);
      if (QueueKeys.isLane(key)) {
        laneOffered(); // it may have tasks left
      }
    }
  }

  private void release(String key) {
    calls.call(() -> {
      frontier.releaseQueue(key);
      return null;
    });
  }

  /** A lane's task was admitted: the lane may be in line now. */
  void laneOffered() {
    lineWithoutLanes = false;
    laneChanges++;
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
    release(key); // a lane after all: back in line, for a worker to check it out
    laneOffered();
    return false;
  }
}
