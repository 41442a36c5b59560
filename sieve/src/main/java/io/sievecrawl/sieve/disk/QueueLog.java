package io.sievecrawl.sieve.disk;

import io.sievecrawl.sieve.Claim;
import io.sievecrawl.sieve.FrontierFailure;
import io.sievecrawl.sieve.TaskCodec;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link DiskFrontier}'s queues: the log, each queue's chain through it, the acknowledgements and the claims in
 * flight, all guarded by one lock (the frontier's notes 1, 2, 3, 5 and 6). Write failures stick: the first one makes
 * every later call fail too.
 */
final class QueueLog<T> {
  private final Path dir;
  private final TaskCodec<T> codec;
  private final ReentrantLock lock = new ReentrantLock();

  // Guarded by lock.
  private final LogWriter writer;
  private final SegmentFiles files;
  private final Segments segments;
  private final AckWindow acks;
  private final QueueTable queues;
  private final Map<Long, InFlight> inFlight = new HashMap<>();
  private long nextSeq;
  private long pending; // tasks not acknowledged: waiting or in flight
  private long admitted;
  private boolean stopped;
  private boolean closed;
  private IOException failure; // the first write failure; the frontier is unusable after it

  private record InFlight(QueueTable.Queue queue, long position) {}

  /** What the queues hold at one moment. */
  record Counts(long queued, long working, long admitted, long holding) {}

  /** The log's end, flushed, and the tasks admitted before it. */
  record Mark(LogPosition position, long admitted) {}

  QueueLog(Path dir, TaskCodec<T> codec, LogRecovery recovered) {
    this.dir = dir;
    this.codec = codec;
    this.writer = recovered.writer;
    this.files = recovered.files;
    this.segments = recovered.segments;
    this.acks = recovered.acks;
    this.queues = recovered.queues;
    this.nextSeq = recovered.nextSeq;
    this.pending = recovered.pending;
    this.admitted = recovered.admitted;
  }

  /** Appends an admitted task to the queue named {@code queue}, creating the queue. */
  void append(String queue, byte[] bytes) {
    lock.lock();
    try {
      checkUsable();
      QueueTable.Queue q = queues.getOrCreate(queue);
      long seq = nextSeq++;
      long nextField = writer.appendTask(seq, q.id, bytes);
      long position = nextField - LogFormat.recordBytes(LogFormat.TASK, bytes.length) + LogFormat.NEXT_BYTES;
      segments.note(writer.segment(), writer.firstSeq());
      segments.added(writer.segment());
      if (q.tail != 0) {
        writer.patchNext(q.tail, position);
      }
      q.tail = nextField;
      if (q.waiting == 0) {
        q.head = position;
      }
      queues.added(q);
      pending++;
      admitted++;
    } catch (IOException e) {
      throw failed(e);
    } finally {
      lock.unlock();
    }
  }

  String nextQueue() {
    lock.lock();
    try {
      checkUsable();
      if (stopped) {
        return null;
      }
      QueueTable.Queue q = queues.checkOut();
      return q == null ? null : q.key;
    } catch (IOException e) {
      throw failed(e);
    } finally {
      lock.unlock();
    }
  }

  Claim<T> poll(String queue) {
    lock.lock();
    try {
      checkUsable();
      QueueTable.Queue q = queues.get(queue);
      if (stopped || q == null || !q.checkedOut || q.waiting == 0) {
        return null;
      }
      while (true) {
        long position = q.head;
        if (position == 0) {
          throw new FrontierCorruptException(dir + ": queue " + q.id + " (" + q.key + ") should hold " + q.waiting
              + " more tasks, but its chain ends");
        }
        writer.flushThrough(position);
        SegmentFiles.TaskRecord record = files.readTask(position);
        if (record.queue != q.id) {
          throw new FrontierCorruptException(dir + ": " + LogFormat.describe(position) + " holds a task of queue "
              + record.queue + ", but queue " + q.id + " (" + q.key + ") leads there");
        }
        q.head = record.next;
        if (acks.isAcknowledged(record.seq)) {
          continue; // done out of order before a restart
        }
        T task = codec.decode(record.bytes, record.taskOffset, record.taskLength);
        queues.taken(q);
        q.claimed(position);
        inFlight.put(record.seq, new InFlight(q, position));
        return new Claim<>(task, record.seq);
      }
    } catch (IOException e) {
      throw failed(e);
    } catch (IllegalArgumentException e) {
      throw failed(new FrontierCorruptException(dir + ": a task in queue " + queue + " cannot be read: "
          + e.getMessage()));
    } finally {
      lock.unlock();
    }
  }

  void releaseQueue(String queue) {
    lock.lock();
    try {
      QueueTable.Queue q = queues.get(queue);
      if (q == null || !q.checkedOut) {
        throw new IllegalStateException("queue '" + queue + "' is not checked out");
      }
      queues.release(q);
    } finally {
      lock.unlock();
    }
  }

  void complete(long claimId) {
    lock.lock();
    try {
      checkUsable();
      InFlight done = inFlight.remove(claimId);
      if (done == null || !acks.acknowledge(claimId)) {
        throw new IllegalStateException("claim " + claimId + " is not in flight");
      }
      QueueTable.Queue q = done.queue();
      q.released(done.position());
      writer.appendAck(claimId, q.id, q.resumePosition(), nextSeq);
      segments.note(writer.segment(), writer.firstSeq());
      writer.flush(); // an acknowledged page is never fetched again, even after a kill
      segments.acknowledgedAt(done.position());
      pending--;
      queues.forgetIfSpent(q);
    } catch (IOException e) {
      throw failed(e);
    } finally {
      lock.unlock();
    }
  }

  boolean isFinished() {
    lock.lock();
    try {
      return stopped || pending == 0;
    } finally {
      lock.unlock();
    }
  }

  void stop() {
    lock.lock();
    try {
      stopped = true;
    } finally {
      lock.unlock();
    }
  }

  Counts counts() {
    lock.lock();
    try {
      long working = inFlight.size();
      return new Counts(pending - working, working, admitted, queues.holding());
    } finally {
      lock.unlock();
    }
  }

  /** Hands the buffer to the operating system and says where the log ends; null once closed. */
  Mark flushedMark() throws IOException {
    lock.lock();
    try {
      if (closed) {
        return null;
      }
      checkUsable();
      writer.flush();
      return new Mark(writer.flushedEnd(), admitted);
    } finally {
      lock.unlock();
    }
  }

  /** Forces the log to the device, without holding the lock during the fsync. */
  void sync() throws IOException {
    RandomAccessFile current;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      checkUsable();
      writer.flush();
      current = writer.file();
    } catch (IOException e) {
      throw failed(e);
    } finally {
      lock.unlock();
    }
    LogWriter.force(current);
  }

  /** Deletes the segments that hold no task to do and lie before {@code redoFrom} (note 5). */
  void deleteObsoleteSegments(LogPosition redoFrom) throws IOException {
    List<Long> obsolete;
    lock.lock();
    try {
      obsolete = segments.takeObsolete(Math.min(redoFrom.segment(), writer.segment()));
      for (long number : obsolete) {
        files.forget(number);
      }
    } finally {
      lock.unlock();
    }
    for (long number : obsolete) {
      Files.deleteIfExists(dir.resolve(LogFormat.segmentName(number)));
    }
  }

  boolean isClosed() {
    lock.lock();
    try {
      return closed;
    } finally {
      lock.unlock();
    }
  }

  /** Flushes the log and closes the files; a second call does nothing. */
  void close() throws IOException {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      try {
        writer.close();
      } finally {
        files.close();
      }
    } finally {
      lock.unlock();
    }
  }

  private void checkUsable() throws IOException {
    if (failure != null) {
      throw new IOException("the frontier stopped after an earlier failure: " + failure.getMessage(), failure);
    }
    if (closed) {
      throw new IllegalStateException("the frontier in " + dir + " is closed");
    }
  }

  /** Remembers the first write failure (later calls fail too) and wraps it for the unchecked contract. */
  private FrontierFailure failed(IOException e) {
    if (failure == null) {
      failure = e;
    }
    return new FrontierFailure("the frontier in " + dir + " failed: " + e.getMessage(), e);
  }
}
