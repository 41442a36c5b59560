package io.sievecrawl.sieve.disk;

import io.sievecrawl.sieve.Admission;
import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.CapacityMonitor;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * What a {@link DiskFrontier} admits through: the URL filter (with the exact store, if kept) and the gate that orders
 * admissions against checkpoints and growth. An offer holds the gate's read side from the filter's answer until its
 * record is appended; a checkpoint or a growth takes the write side to see no admission half done (the frontier's
 * notes 4, 7 and 8).
 */
final class AdmissionGate {
  private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();
  private final SeenRuns seen; // null: the filter decides alone
  private final LongAdder dropped = new LongAdder();
  private final long droppedBefore; // duplicates dropped before this run
  private final long rescuedBefore; // URLs rescued from false positives before this run
  private volatile Admission admission; // replaced only while the write side is held (note 8)
  private volatile CapacityMonitor capacity;

  AdmissionGate(LogRecovery recovered) {
    this.admission = recovered.admission;
    this.seen = recovered.seen;
    this.droppedBefore = recovered.checkpoint.duplicatesDropped();
    this.rescuedBefore = recovered.checkpoint.rescued();
  }

  /** Takes the read side: held by an offer from the filter's answer until its record is appended. */
  void enter() {
    gate.readLock().lock();
  }

  void leave() {
    gate.readLock().unlock();
  }

  /** Takes the write side: no admission runs until {@link #open()}. */
  void close() {
    gate.writeLock().lock();
  }

  void open() {
    gate.writeLock().unlock();
  }

  /** Whether {@code url} is new; a duplicate is counted as dropped. Call between {@link #enter} and {@link #leave}. */
  boolean admit(CharSequence url) {
    if (admission.admit(url)) {
      return true;
    }
    dropped.increment();
    return false;
  }

  /** Puts in {@code grown} as the filter, with its capacity monitor. Call with the write side held. */
  void replaceFilter(BloomFilter grown) {
    admission = admission.withFilter(grown);
    capacity = new CapacityMonitor(grown, capacity);
  }

  void watch(CapacityMonitor monitor) {
    capacity = monitor;
  }

  CapacityMonitor capacity() {
    return capacity;
  }

  Admission admission() {
    return admission;
  }

  BloomFilter filter() {
    return admission.filter();
  }

  /** The exact store, or null when the filter decides alone. */
  SeenRuns seen() {
    return seen;
  }

  long dropped() {
    return droppedBefore + dropped.sum();
  }

  long rescued() {
    return rescuedBefore + admission.rescued();
  }
}
