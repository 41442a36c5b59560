package io.sievecrawl.sieve.redis;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * When this agent asks each group of its shards' lines ({@link CrawlKeys#group}: a shard of a crawl spread over a
 * cluster, every shard on one Redis) for an origin again. A group whose line yielded nothing is paused, first for
 * {@link #FIRST_PAUSE_NANOS}, each empty answer after that twice as long, up to {@link #LONGEST_PAUSE_NANOS}; an
 * origin that may have come into its line ({@link #mayHold}) ends the pause at once. After a pause, one worker asks
 * again while the others skip the group: an agent with nothing to do costs a round trip per group per pause, however
 * many workers it has; a line whose last answer was an origin is asked by workers side by side.
 */
final class LinePauses {
  /*
   * Design notes.
   *
   * 1. What ends a pause early is known here only for what this agent does: it lined an origin up in the group (an
   *    admission), released one of its origins, or took the shard over; and what its end check read (a shard of its
   *    own holding open tasks). An origin another agent lines up into a paused group is found when the pause ends:
   *    within LONGEST_PAUSE_NANOS, sooner while this agent checks for the end (every 200 ms, when it holds no lease).
   * 2. mayHold may come while a worker's ask is on its way, whose empty answer was read before the origin came into
   *    line: each group has a count of such calls, and an empty answer pauses the group only if none came since its
   *    ask began (ask returns the count to hand to empty).
   * 3. A group's state is one immutable Paused replaced atomically (ConcurrentHashMap.compute), so no lock is held
   *    and no call to Redis is made under one.
   */
  static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  static final long LONGEST_PAUSE_NANOS = TimeUnit.SECONDS.toNanos(1);

  /**
   * A group's state: paused until {@code until} for {@code length} (none: 0), a worker asking alone, the mayHold count,
   * and whether its last answer was an origin (then workers ask side by side, as busy lines need).
   */
  private record Paused(long until, long length, boolean asking, long heard, boolean yielding) {
    static final Paused NONE = new Paused(0, 0, false, 0, false);

    boolean paused(long now) {
      return length > 0 && now - until < 0;
    }

    /** Not paused, one worker asking at a time, as after an empty answer or before any. */
    Paused unpaused(long heard) {
      return new Paused(0, 0, false, heard, false);
    }
  }

  private final Map<Integer, Paused> groups = new ConcurrentHashMap<>();

  /**
   * Whether the group's line may be asked now: its last answer was an origin, or it is not paused and no other worker
   * asks it (note 2). Returns the group's mayHold count to hand to {@link #empty}, or {@code -1} when it is not to be
   * asked now.
   */
  long ask(int group, long now) {
    long[] ticket = {-1};
    groups.compute(group, (g, p) -> {
      Paused state = p == null ? Paused.NONE : p;
      if (state.yielding) {
        ticket[0] = state.heard;
        return state;
      }
      if (state.asking || state.paused(now)) {
        return state;
      }
      ticket[0] = state.heard;
      return new Paused(state.until, state.length, true, state.heard, false);
    });
    return ticket[0];
  }

  /** The group's line yielded an origin: no pause, and workers ask it side by side. */
  void found(int group) {
    groups.computeIfPresent(group, (g, p) -> new Paused(0, 0, false, p.heard, true));
  }

  /**
   * The group's line yielded nothing to an ask that began with {@code ticket}: paused twice as long as before (the
   * first pause {@link #FIRST_PAUSE_NANOS}, none longer than {@link #LONGEST_PAUSE_NANOS}), unless an origin may have
   * come into line since the ask began (note 2), or another worker's empty answer paused it already.
   */
  void empty(int group, long ticket, long now) {
    groups.compute(group, (g, p) -> {
      Paused state = p == null ? Paused.NONE : p;
      if (state.heard != ticket) {
        return state.yielding ? state : state.unpaused(state.heard);
      }
      if (!state.yielding && !state.asking && state.length > 0) {
        return state; // a worker asking side by side with this one paused it already
      }
      long length = state.yielding || state.length == 0 ? FIRST_PAUSE_NANOS
          : Math.min(LONGEST_PAUSE_NANOS, 2 * state.length);
      return new Paused(now + length, length, false, state.heard, false);
    });
  }

  /** An ask that began with a ticket failed (Redis away, say): the group may be asked again at once. */
  void failed(int group) {
    groups.computeIfPresent(group, (g, p) -> new Paused(p.until, p.length, false, p.heard, p.yielding));
  }

  /** An origin may have come into the group's line: asked again at once. */
  void mayHold(int group) {
    groups.compute(group, (g, p) -> heard(p == null ? Paused.NONE : p));
  }

  private static Paused heard(Paused p) {
    return p.yielding ? new Paused(0, 0, false, p.heard + 1, true) : p.unpaused(p.heard + 1);
  }

  /** Whether the group's line is paused now (for tests and the scan's order). */
  boolean paused(int group, long now) {
    Paused p = groups.get(group);
    return p != null && p.paused(now);
  }
}
