package io.sievecrawl.crawler.schedule;

import java.util.PriorityQueue;

/**
 * The due-heap: active origins that may start a request once their time comes, earliest first, so that origins
 * that are due are served round robin in the order they became due. Guarded by the scheduler's lock.
 */
final class DueOrigins<T> {
  private final PriorityQueue<ActiveOrigin<T>> heap =
      new PriorityQueue<>((a, b) -> Long.compare(a.nextStart - b.nextStart, 0));

  /** The origin due first, or {@code null}. */
  ActiveOrigin<T> peek() {
    return heap.peek();
  }

  void add(ActiveOrigin<T> o) {
    if (!o.inHeap) {
      o.inHeap = true;
      heap.add(o);
    }
  }

  void remove(ActiveOrigin<T> o) {
    if (o.inHeap) {
      o.inHeap = false;
      heap.remove(o);
    }
  }

  /** Moves {@code o} to its new time: the heap orders by {@code nextStart}, so it is taken out and put back. */
  void reschedule(ActiveOrigin<T> o, long nextStart) {
    if (nextStart == o.nextStart) {
      return;
    }
    boolean was = o.inHeap;
    remove(o);
    o.nextStart = nextStart;
    if (was) {
      add(o);
    }
  }

  int size() {
    return heap.size();
  }
}
