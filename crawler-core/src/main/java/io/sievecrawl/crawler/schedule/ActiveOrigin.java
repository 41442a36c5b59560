package io.sievecrawl.crawler.schedule;

import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.QueueKeys;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * An origin the scheduler has checked out of the frontier: its queues checked out (its own, its lanes: see
 * {@link QueueLanes}), its pace, its requests in flight, the tasks handed back to it for a retry, and its place in the
 * due-heap. Guarded by the scheduler's lock.
 */
final class ActiveOrigin<T> {
  final String origin;
  final OriginPace pace;
  private ArrayDeque<Claim<T>> retries; // tried again before the frontier's next task; made when first needed
  private final ArrayList<String> queues = new ArrayList<>(2); // checked out: lanes first, then its own queue
  int inFlight;
  int leases; // since it was checked out: an origin that had its turns yields to one waiting in line
  long nextStart; // pace.nextStart, cached: the due-heap orders by it
  boolean inHeap;
  boolean busy; // its next task is being read from the frontier, with the scheduler's lock let go: kept out of the heap
  Claim<T> lastLeased; // the latest lease's claim, and the pace's start before it: see completeUnfetched
  long startBefore;
  boolean startedBefore;

  ActiveOrigin(String origin, Politeness politeness, long now) {
    this.origin = origin;
    this.pace = new OriginPace(politeness);
    this.nextStart = now;
  }

  /** The queue {@code key} (its own, or one of its lanes) was checked out for it: lanes are served first. */
  void checkedOut(String key) {
    if (!queues.contains(key)) {
      queues.add(QueueKeys.isLane(key) ? 0 : queues.size(), key);
    }
  }

  /** Its queues checked out, lanes first: a copy. */
  List<String> queues() {
    return List.copyOf(queues);
  }

  boolean hasLane() {
    return !queues.isEmpty() && QueueKeys.isLane(queues.get(0));
  }

  void clearQueues() {
    queues.clear();
  }

  /** Whether the frontier may be asked for its next task or a retry waits: not at its limit of requests in flight. */
  boolean hasRoom(int hostConcurrency) {
    return inFlight < hostConcurrency;
  }

  /** Whether it may go back to the frontier's line without losing anything: no request out, no retry held. */
  boolean isReleasable() {
    return inFlight == 0 && retryCount() == 0;
  }

  /** Holds {@code claim} to be leased before anything else of the origin. */
  void retryFirst(Claim<T> claim) {
    if (retries == null) {
      retries = new ArrayDeque<>(2);
    }
    retries.addFirst(claim);
  }

  /** The retry held first, or {@code null}. */
  Claim<T> takeRetry() {
    return retries == null ? null : retries.pollFirst();
  }

  int retryCount() {
    return retries == null ? 0 : retries.size();
  }
}
