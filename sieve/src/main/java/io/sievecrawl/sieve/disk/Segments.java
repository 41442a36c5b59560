package io.sievecrawl.sieve.disk;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The log's segments still on disk: the first sequence number of each, and how many of its tasks are not yet
 * acknowledged. A segment can go once it and every segment before it hold none. Not thread-safe: the frontier
 * calls it under its lock.
 */
final class Segments {
  private static final class Segment {
    final long firstSeq;
    long live;

    Segment(long firstSeq) {
      this.firstSeq = firstSeq;
    }
  }

  private final TreeMap<Long, Segment> bySegment = new TreeMap<>();
  private final TreeMap<Long, Segment> byFirstSeq = new TreeMap<>(); // the last segment of a run of equal firstSeqs

  /** Notes segment {@code number}, whose tasks are numbered from {@code firstSeq}, if it is new. */
  void note(long number, long firstSeq) {
    if (!bySegment.containsKey(number)) {
      Segment segment = new Segment(firstSeq);
      bySegment.put(number, segment);
      byFirstSeq.put(firstSeq, segment); // a segment of acknowledgements only shares its firstSeq with the next
    }
  }

  long firstSeqOf(long segment) {
    return bySegment.get(segment).firstSeq;
  }

  /** A task was written to {@code segment}. */
  void added(long segment) {
    bySegment.get(segment).live++;
  }

  /** The task {@code seq} was acknowledged. */
  void acknowledged(long seq) {
    Map.Entry<Long, Segment> holder = byFirstSeq.floorEntry(seq);
    if (holder == null) {
      throw new IllegalStateException("task " + seq + " lies before the first segment");
    }
    holder.getValue().live--;
  }

  /** The task at {@code position} was acknowledged: cheaper than by its number. */
  void acknowledgedAt(long position) {
    bySegment.get(LogFormat.segmentOf(position)).live--;
  }

  /**
   * Removes and returns the segments that can go: a run from the first, each holding no task still to do, all
   * before {@code limit}.
   */
  List<Long> takeObsolete(long limit) {
    List<Long> obsolete = new ArrayList<>();
    while (!bySegment.isEmpty()) {
      Map.Entry<Long, Segment> first = bySegment.firstEntry();
      if (first.getKey() >= limit || first.getValue().live != 0) {
        break;
      }
      obsolete.add(first.getKey());
      bySegment.pollFirstEntry();
      byFirstSeq.values().remove(first.getValue());
    }
    return obsolete;
  }
}
