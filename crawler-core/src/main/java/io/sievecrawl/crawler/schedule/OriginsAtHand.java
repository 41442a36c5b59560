package io.sievecrawl.crawler.schedule;

import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.QueueKeys;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The origins the scheduler has at hand: the active set (origins checked out of the frontier, at most
 * {@code maxActive}), the due-heap that orders them by their next start, and the bookkeeping of their leases
 * (requests in flight, starts taken back, tasks held for a retry, changes of pace). Guarded by the scheduler's lock;
 * it makes no call into the frontier, and wakes no worker: {@link HostScheduler} does both.
 */
final class OriginsAtHand<T> {
  private final Politeness politeness;
  private final int hostConcurrency;
  private final HostScheduler.LeaseObserver observer;
  private final Map<String, ActiveOrigin<T>> active = new HashMap<>();
  private final DueOrigins<T> due = new DueOrigins<>();
  private int leasesOut; // leases handed out and not ended, over all origins

  /** A change of an origin's pace, at the ticker's time {@code now}. */
  interface PaceChange<T> {
    void apply(ActiveOrigin<T> o, long now);
  }

  OriginsAtHand(Politeness politeness, HostScheduler.LeaseObserver observer) {
    this.politeness = politeness;
    this.hostConcurrency = politeness.hostConcurrency();
    this.observer = observer;
  }

  /** The origin that is due first (perhaps not yet), or {@code null}. */
  ActiveOrigin<T> firstDue() {
    return due.peek();
  }

  /** Whether another origin may join the set, with {@code checkingOut} on their way. */
  boolean hasRoom(int checkingOut) {
    return active.size() + checkingOut < politeness.maxActive();
  }

  Collection<ActiveOrigin<T>> all() {
    return active.values();
  }

  /** Leases handed out and not ended, over all origins. */
  int leasesOut() {
    return leasesOut;
  }

  /** The queue {@code key} was checked out: its origin joins the set at hand, or has one more of its queues. */
  void checkedOut(String key, long now) {
    ActiveOrigin<T> o = active.computeIfAbsent(QueueKeys.origin(key), origin -> new ActiveOrigin<>(origin, politeness,
        now));
    o.checkedOut(key);
    if (o.hasRoom(hostConcurrency) && !o.busy) {
      due.add(o);
    }
  }

  /** The origin's next task is read from the frontier: it stays out of the due-heap until {@link #read}. */
  void reading(ActiveOrigin<T> o) {
    due.remove(o);
    o.busy = true;
  }

  /** The read ended: the origin may go back in the heap ({@link #reposition}). */
  void read(ActiveOrigin<T> o) {
    o.busy = false;
  }

  /**
   * Whether the due origin {@code head} has had its turns while the set is full: {@value HostScheduler#TURN_LEASES}
   * leases since it was checked out, nothing pending (no request out, no retry, no delay or back-off to keep).
   */
  boolean hadItsTurns(ActiveOrigin<T> head, long now) {
    return active.size() >= politeness.maxActive() && head.leases >= HostScheduler.TURN_LEASES && head.isReleasable()
        && head.pace.isIdle(now);
  }

  /** The origin leaves the set, on its way back to the frontier's line. */
  void forget(ActiveOrigin<T> o) {
    due.remove(o);
    active.remove(o.origin);
  }

  /** Leases {@code claim} of the origin at {@code now}: its start counts from now. */
  HostScheduler.Lease<T> lease(ActiveOrigin<T> o, Claim<T> claim, long now) {
    o.inFlight++;
    leasesOut++;
    o.leases++;
    o.lastLeased = claim;
    o.startBefore = o.pace.lastStart();
    o.startedBefore = o.pace.hasStarted();
    o.pace.started(now);
    reposition(o, now);
    observer.leased(o.origin, now);
    return new HostScheduler.Lease<>(claim, o.origin);
  }

  /**
   * Puts the origin at its next start in the due-heap, or out of it while its requests in flight are at the limit or
   * its next task is being read.
   */
  void reposition(ActiveOrigin<T> o, long now) {
    due.reschedule(o, o.pace.nextStart(now));
    if (o.hasRoom(hostConcurrency) && !o.busy) {
      due.add(o);
    } else {
      due.remove(o);
    }
  }

  /** See {@link HostScheduler#sending}: 0 when the request may go now (its start counted), else the wait. */
  long sending(HostScheduler.Lease<T> lease, long now) {
    ActiveOrigin<T> o = active.get(lease.origin());
    long wait = o.pace.sending(now);
    if (wait == 0) {
      reposition(o, now);
      observer.sent(o.origin, now);
    }
    return wait;
  }

  /** The lease ended: its origin has one request fewer in flight. */
  void ended(HostScheduler.Lease<T> lease, long now) {
    ActiveOrigin<T> o = active.get(lease.origin());
    o.inFlight--;
    leasesOut--;
    reposition(o, now);
  }

  /** The lease's start stands for no request: the origin's pace is as if it had not been made. */
  void takeBackStart(HostScheduler.Lease<T> lease) {
    ActiveOrigin<T> o = active.get(lease.origin());
    if (o.lastLeased == lease.claim()) {
      observer.startTakenBack(o.origin, o.pace.lastStart());
      o.pace.restoreStart(o.startBefore, o.startedBefore);
      o.lastLeased = null;
    }
  }

  /** The lease ended with {@code retry} held first for its origin, which starts nothing before {@code after}. */
  void handBack(HostScheduler.Lease<T> lease, T retry, Duration after, boolean unfetched, long now) {
    ActiveOrigin<T> o = active.get(lease.origin());
    if (unfetched) {
      takeBackStart(lease);
    }
    o.inFlight--;
    leasesOut--;
    o.pace.pauseUntil(now + after.toNanos());
    o.retryFirst(new Claim<>(retry, lease.claim().id()));
    reposition(o, now);
  }

  /** Changes the pace of {@code origin} if it is at hand; returns whether it was. */
  boolean change(String origin, PaceChange<T> change, long now) {
    ActiveOrigin<T> o = active.get(origin);
    if (o == null) {
      return false;
    }
    change.apply(o, now);
    reposition(o, now);
    return true;
  }

  /** The origin's current delay between starts; zero for an origin not at hand. */
  Duration delayOf(String origin) {
    ActiveOrigin<T> o = active.get(origin);
    return o == null ? Duration.ZERO : Duration.ofNanos(o.pace.effectiveDelay());
  }

  SchedulerSnapshot snapshot(long now) {
    return SchedulerSnapshot.of(active.values(), now);
  }
}
