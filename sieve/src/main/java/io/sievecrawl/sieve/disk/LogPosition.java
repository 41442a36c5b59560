package io.sievecrawl.sieve.disk;

/** A place in the log: a segment number and a byte offset inside that segment's file. */
record LogPosition(long segment, long offset) implements Comparable<LogPosition> {

  @Override
  public int compareTo(LogPosition other) {
    int bySegment = Long.compare(segment, other.segment);
    return bySegment != 0 ? bySegment : Long.compare(offset, other.offset);
  }

  boolean isBefore(LogPosition other) {
    return compareTo(other) < 0;
  }

  @Override
  public String toString() {
    return LogFormat.segmentName(segment) + "@" + offset;
  }
}
