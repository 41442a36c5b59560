package io.sievecrawl.sieve.disk;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * What the heap holds of the disk frontier's queues: per queue with tasks waiting or in flight, where its chain
 * starts and ends in the log and how many tasks wait, and the line of queues waiting to be checked out. A queue
 * costs its key and about 100 bytes, whatever the number of its tasks. Not thread-safe: the frontier calls it under
 * its lock.
 */
final class QueueTable {
  private static final long[] NONE = new long[0];

  private final Map<String, Queue> byKey = new HashMap<>();
  private final ArrayDeque<Queue> line = new ArrayDeque<>();
  private int nextId;
  private long holding; // queues with tasks waiting

  /** One queue: a chain of TASK records in the log, from {@code head} to the record whose next-field is {@code tail}. */
  static final class Queue {
    final String key;
    final int id;
    long head; // position of the oldest waiting task's record; 0 when none waits
    long tail; // position of the newest task's next-field; 0 when every task of the queue is acknowledged
    int waiting;
    private long[] inFlight = NONE; // record positions of its claims in flight
    private int inFlightCount;
    boolean checkedOut;
    boolean inLine;

    Queue(String key, int id) {
      this.key = key;
      this.id = id;
    }

    void claimed(long position) {
      if (inFlightCount == inFlight.length) {
        inFlight = Arrays.copyOf(inFlight, Math.max(2, inFlightCount * 2));
      }
      inFlight[inFlightCount++] = position;
    }

    void released(long position) {
      for (int i = 0; i < inFlightCount; i++) {
        if (inFlight[i] == position) {
          inFlight[i] = inFlight[--inFlightCount];
          if (inFlightCount == 0) {
            inFlight = NONE;
          }
          return;
        }
      }
      throw new IllegalStateException("no claim in flight at " + LogFormat.describe(position));
    }

    /**
     * Where a restart must begin to read this queue: its oldest task in flight, else its oldest waiting task; 0 when
     * it has neither. Written into each acknowledgement of the queue, so that recovery need not read past the tasks
     * the queue is done with.
     */
    long resumePosition() {
      long oldest = waiting > 0 ? head : Long.MAX_VALUE;
      for (int i = 0; i < inFlightCount; i++) {
        oldest = Math.min(oldest, inFlight[i]);
      }
      return oldest == Long.MAX_VALUE ? 0 : oldest;
    }

    /** Whether the queue has nothing unacknowledged: its next task starts a new chain. */
    boolean isSpent() {
      return waiting == 0 && inFlightCount == 0;
    }
  }

  QueueTable(int nextId) {
    this.nextId = nextId;
  }

  Queue get(String key) {
    return byKey.get(key);
  }

  /** The queue of {@code key}, made if there is none. */
  Queue getOrCreate(String key) {
    Queue q = byKey.get(key);
    if (q == null) {
      if (nextId == Integer.MAX_VALUE) {
        throw new IllegalStateException("more than " + Integer.MAX_VALUE + " queues");
      }
      q = new Queue(key, nextId++);
      byKey.put(key, q);
    }
    return q;
  }

  /** Adds a queue rebuilt by recovery, in line. */
  void restore(Queue q) {
    if (byKey.putIfAbsent(q.key, q) != null) {
      throw new IllegalStateException("two queues for " + q.key);
    }
    holding++;
    lineUp(q);
  }

  /** A task was appended to {@code q}. */
  void added(Queue q) {
    if (q.waiting++ == 0) {
      holding++;
    }
    if (!q.checkedOut) {
      lineUp(q);
    }
  }

  /** A task of {@code q} was handed out. */
  void taken(Queue q) {
    if (--q.waiting == 0) {
      holding--;
      q.head = 0;
    }
  }

  /** The queue first in line, now checked out; {@code null} if none is in line. */
  Queue checkOut() {
    Queue q = line.pollFirst();
    if (q != null) {
      q.inLine = false;
      q.checkedOut = true;
    }
    return q;
  }

  void release(Queue q) {
    q.checkedOut = false;
    if (q.waiting > 0) {
      lineUp(q);
    } else {
      forgetIfSpent(q);
    }
  }

  /** Forgets {@code q} when nothing of it is unacknowledged and nobody holds it: its next task starts it anew. */
  void forgetIfSpent(Queue q) {
    if (q.isSpent()) {
      q.tail = 0;
      if (!q.checkedOut) {
        byKey.remove(q.key);
      }
    }
  }

  private void lineUp(Queue q) {
    if (!q.inLine) {
      q.inLine = true;
      line.addLast(q);
    }
  }

  /** Queues with tasks waiting. */
  long holding() {
    return holding;
  }
}
