package io.sievecrawl.sieve.redis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntPredicate;
import java.util.function.ToIntFunction;

/**
 * What this agent holds of a shared crawl, in its own memory: the origins it has checked out with the tasks claimed
 * ahead for them, the claims handed out to its workers, and the claims on their way (a claim or an acknowledgement
 * sent to Redis, its answer not back yet). {@link #held} tells which of the agent's entries in a shard's flight hash
 * it still holds, so that those it does not can be put back ({@link FlightRecovery}).
 */
final class LocalClaims {
  /*
   * Design notes.
   *
   * 1. One lock guards everything here, and is held for memory only: the frontier calls Redis between two visits,
   *    never during one, so a worker never waits for another's round trip.
   * 2. A flight field (AGENT:N) is made here, N from one counter that only grows. From the moment it is made until
   *    its claim is acknowledged, handed back or dropped, the field is in one of: on its way (a CLAIM sent), claimed
   *    ahead, handed out, on its way again (an ACK sent). Held.isStray relies on that: a field of this agent not in
   *    any of them, and not newer than the counter when they were read, is held by nobody.
   * 3. A claim is handed out only while its shard is this agent's ({@link #handOut} asks under the lock), and a shard
   *    is handed back only when nothing of it is handed out or on its way ({@link #drainIfIdle}, under the lock): so
   *    a shard never leaves while a worker holds one of its tasks.
   */

  /** A task claimed in Redis (in the flight hash under {@code field}), not handed out yet. */
  record Claimed(String field, byte[] task) {}

  /** A claim handed out to a worker: its frontier id, its shard, its flight field and the task. */
  record HandedOut(long id, int shard, String field, byte[] task) {}

  /** Flight fields made for a claim about to be sent, while the shard had been lost {@code losses} times here. */
  record Reservation(int shard, String[] fields, long losses) {}

  /** The fields of a shard this agent held when the last field number made was {@code mark}. */
  record Held(Set<String> fields, long mark) {
    /**
     * Whether {@code field} (an entry of the shard's flight hash) is held by nobody: another agent's entry in a shard
     * this agent owns, or one of this agent's own that it does not hold and that is not newer than this record.
     */
    boolean isStray(String field, String agentId) {
      if (fields.contains(field)) {
        return false;
      }
      int colon = field.lastIndexOf(':');
      if (colon < 0 || !field.substring(0, colon).equals(agentId)) {
        return true;
      }
      try {
        return Long.parseLong(field.substring(colon + 1)) <= mark;
      } catch (NumberFormatException e) {
        return true;
      }
    }
  }

  private final String agentId;
  private final ToIntFunction<String> shardOf;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, ArrayDeque<Claimed>> checkedOut = new HashMap<>();
  private final Map<Long, HandedOut> handedOut = new HashMap<>();
  private final Map<String, Integer> onTheWay = new HashMap<>(); // flight field -> its shard
  private final Map<Integer, Integer> busy = new HashMap<>(); // per shard: handed out or on their way
  private final Map<Integer, Long> losses = new HashMap<>(); // per shard: times another agent took it from this one
  private long counter;

  LocalClaims(String agentId, ToIntFunction<String> shardOf) {
    this.agentId = agentId;
    this.shardOf = shardOf;
  }

  /** Notes {@code origin} as checked out here; false if it already was. */
  boolean checkOut(String origin) {
    lock.lock();
    try {
      return checkedOut.putIfAbsent(origin, new ArrayDeque<>()) == null;
    } finally {
      lock.unlock();
    }
  }

  /** Whether {@code origin} is checked out here and nothing is claimed ahead for it: the next task needs a claim. */
  boolean needsClaim(String origin) {
    lock.lock();
    try {
      ArrayDeque<Claimed> ahead = checkedOut.get(origin);
      return ahead != null && ahead.isEmpty();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Hands out the next task claimed ahead for {@code origin}, if its shard is this agent's now ({@code owns});
   * {@code null} when there is none or the shard is not.
   */
  HandedOut handOut(String origin, int shard, IntPredicate owns) {
    lock.lock();
    try {
      ArrayDeque<Claimed> ahead = checkedOut.get(origin);
      if (ahead == null || ahead.isEmpty() || !owns.test(shard)) {
        return null;
      }
      Claimed next = ahead.pollFirst();
      HandedOut out = new HandedOut(++counter, shard, next.field(), next.task());
      handedOut.put(out.id(), out);
      busy.merge(shard, 1, Integer::sum);
      return out;
    } finally {
      lock.unlock();
    }
  }

  /** Makes {@code count} new flight fields for a claim about to be sent for a shard, on their way until {@link #claimed}. */
  Reservation reserve(int shard, int count) {
    lock.lock();
    try {
      String[] fields = new String[count];
      for (int i = 0; i < count; i++) {
        fields[i] = agentId + ":" + (++counter);
        onTheWay.put(fields[i], shard);
      }
      busy.merge(shard, 1, Integer::sum);
      return new Reservation(shard, fields, losses.getOrDefault(shard, 0L));
    } finally {
      lock.unlock();
    }
  }

  /**
   * The claim of {@code reserved} came back with {@code tasks} (its first {@code tasks.size()} fields'): they are
   * claimed ahead for {@code origin}. Returns those the caller is to put back in Redis: the origin was given back
   * meanwhile. Claims of a shard lost meanwhile are dropped: its new owner has taken them over.
   */
  List<Claimed> claimed(String origin, Reservation reserved, List<byte[]> tasks) {
    lock.lock();
    try {
      for (String field : reserved.fields()) {
        onTheWay.remove(field);
      }
      busy.merge(reserved.shard(), -1, Integer::sum);
      if (losses.getOrDefault(reserved.shard(), 0L) != reserved.losses()) {
        return List.of();
      }
      List<Claimed> got = new ArrayList<>(tasks.size());
      for (int i = 0; i < tasks.size(); i++) {
        got.add(new Claimed(reserved.fields()[i], tasks.get(i)));
      }
      ArrayDeque<Claimed> ahead = checkedOut.get(origin);
      if (ahead == null) {
        return got;
      }
      ahead.addAll(got);
      return List.of();
    } finally {
      lock.unlock();
    }
  }

  /** Another agent took {@code shard}, and with it every claim of it: forgets those claimed ahead here. */
  void lost(int shard) {
    lock.lock();
    try {
      drain(shard);
      losses.merge(shard, 1L, Long::sum);
    } finally {
      lock.unlock();
    }
  }

  /** Gives {@code origin} back: returns what was claimed ahead for it, oldest first. */
  List<Claimed> release(String origin) {
    lock.lock();
    try {
      ArrayDeque<Claimed> ahead = checkedOut.remove(origin);
      if (ahead == null) {
        throw new IllegalStateException("queue '" + origin + "' is not checked out");
      }
      return List.copyOf(ahead);
    } finally {
      lock.unlock();
    }
  }

  /** The claim handed out as {@code id}, or {@code null} if it is not out any longer. */
  HandedOut get(long id) {
    lock.lock();
    try {
      return handedOut.get(id);
    } finally {
      lock.unlock();
    }
  }

  /**
   * The worker is done with claim {@code id}: it is no longer out; with {@code acknowledging}, its field is on its
   * way until {@link #arrived}.
   */
  HandedOut done(long id, boolean acknowledging) {
    lock.lock();
    try {
      HandedOut out = handedOut.remove(id);
      if (out == null) {
        throw new IllegalStateException("claim " + id + " is not in flight");
      }
      if (acknowledging) {
        onTheWay.put(out.field(), out.shard());
      } else {
        busy.merge(out.shard(), -1, Integer::sum);
      }
      return out;
    } finally {
      lock.unlock();
    }
  }

  /** The acknowledgement of {@code out} was answered (or failed). */
  void arrived(HandedOut out) {
    lock.lock();
    try {
      onTheWay.remove(out.field());
      busy.merge(out.shard(), -1, Integer::sum);
    } finally {
      lock.unlock();
    }
  }

  /**
   * If nothing of {@code shard} is handed out or on its way, takes what is claimed ahead for its origins (which stay
   * checked out, yielding nothing more) and returns it by origin, for the caller to put back; {@code null} otherwise.
   */
  Map<String, List<Claimed>> drainIfIdle(int shard) {
    lock.lock();
    try {
      if (busy.getOrDefault(shard, 0) != 0) {
        return null;
      }
      return drain(shard);
    } finally {
      lock.unlock();
    }
  }

  /** Takes what is claimed ahead for the origins of {@code shard}, or of every shard when {@code shard} is -1. */
  Map<String, List<Claimed>> drain(int shard) {
    lock.lock();
    try {
      Map<String, List<Claimed>> drained = new LinkedHashMap<>();
      for (Map.Entry<String, ArrayDeque<Claimed>> e : checkedOut.entrySet()) {
        if ((shard < 0 || shardOf.applyAsInt(e.getKey()) == shard) && !e.getValue().isEmpty()) {
          drained.put(e.getKey(), List.copyOf(e.getValue()));
          e.getValue().clear();
        }
      }
      return drained;
    } finally {
      lock.unlock();
    }
  }

  /** Forgets every origin checked out here and what was claimed ahead for them (the agent is closing). */
  Map<String, List<Claimed>> releaseAll() {
    lock.lock();
    try {
      Map<String, List<Claimed>> all = drain(-1);
      checkedOut.clear();
      return all;
    } finally {
      lock.unlock();
    }
  }

  /** The fields of {@code shard} this agent holds now, and the last field number made so far (note 2). */
  Held held(int shard) {
    lock.lock();
    try {
      Set<String> fields = new HashSet<>();
      for (Map.Entry<String, ArrayDeque<Claimed>> e : checkedOut.entrySet()) {
        if (shardOf.applyAsInt(e.getKey()) == shard) {
          e.getValue().forEach(c -> fields.add(c.field()));
        }
      }
      handedOut.values().stream().filter(h -> h.shard() == shard).forEach(h -> fields.add(h.field()));
      onTheWay.forEach((field, of) -> {
        if (of == shard) {
          fields.add(field);
        }
      });
      return new Held(fields, counter);
    } finally {
      lock.unlock();
    }
  }

  /** Claims handed out now. */
  int handedOutCount() {
    lock.lock();
    try {
      return handedOut.size();
    } finally {
      lock.unlock();
    }
  }

  /** Origins checked out now. */
  int checkedOutCount() {
    lock.lock();
    try {
      return checkedOut.size();
    } finally {
      lock.unlock();
    }
  }
}
