package io.sievecrawl.crawler.warc;

import io.sievecrawl.crawler.fetch.Exchange;
import io.sievecrawl.crawler.fetch.ExchangeRecorder;
import io.sievecrawl.crawler.fetch.StoredAs;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcRevisit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes captured exchanges as WARC/1.1 (ISO 28500) files with jwarc: a {@code response} and a {@code request}
 * record per exchange, linked by {@code WARC-Concurrent-To}, with SHA-1 block and payload digests; one gzip member
 * per record; files named {@code PREFIX-TIMESTAMP-SERIAL.warc.gz}, written as {@code *.warc.gz.open} and renamed
 * when closed at the size limit or the end of the run, each opened by a {@code warcinfo} record.
 *
 * <p>The directory (its lock, the repair of files a killed run left open, serials and names) is a
 * {@link WarcDirectory}; the records and their bytes are built by {@link WarcRecords}. Each closed file is indexed in
 * the background, and {@link #close()} writes the directory's merged CDXJ index ({@link WarcIndex}).
 *
 * <p>Thread-safe: digests and compression happen on the recording thread; the archive's lock appends finished gzip
 * members (each exchange's two records in one write) and rotates files; a body over 1 MB is compressed as it is
 * appended, under the lock, rather than held in memory.
 */
public final class WarcArchive implements ExchangeRecorder, Closeable {
  private static final Logger log = LoggerFactory.getLogger(WarcArchive.class);
  /** Records with bodies up to this size are compressed in memory, outside the lock; larger ones are streamed. */
  private static final long IN_MEMORY_RECORD = 1024 * 1024;

  private final WarcDirectory directory;
  private final Path dir;
  private final long maxFileSize;
  private final Map<String, List<String>> info;
  private final Clock clock;
  private Path openFile;
  private RandomAccessFile file; // not a FileChannel: an interrupted thread would close a channel under the archive
  private IOException broken;
  private boolean closed;
  private long exchanges;
  private int files;
  private final WarcIndex.Indexer indexer;
  private final FirstCaptures firstCaptures;

  private WarcArchive(WarcDirectory directory, long maxFileSize, int dedupDigests, Map<String, List<String>> info,
      Clock clock) {
    this.directory = directory;
    this.dir = directory.dir();
    this.firstCaptures = new FirstCaptures(dedupDigests);
    this.clock = clock;
    this.maxFileSize = maxFileSize;
    this.info = info;
    this.indexer = new WarcIndex.Indexer(dir);
  }

  /**
   * Opens {@code dir} for WARC files (creating it), first repairing files a killed run left open and removing its
   * capture spill files.
   *
   * @param info the fields of each file's warcinfo record (software, settings, robots policy, ...)
   * @param clock the wall clock: when each file was started, in its name and its warcinfo record
   */
  public static WarcArchive open(Path dir, String prefix, long maxFileSize, Map<String, List<String>> info,
      Clock clock) throws IOException {
    return open(dir, prefix, maxFileSize, 0, info, clock);
  }

  /**
   * As {@link #open(Path, String, long, Map, Clock)}, storing an identical payload once: a response whose payload was
   * archived already in this run is written as a revisit of that capture ({@link FirstCaptures}).
   *
   * @param dedupDigests the payload digests remembered for it (warc.dedup-digests); 0 stores every payload whole
   */
  public static WarcArchive open(Path dir, String prefix, long maxFileSize, int dedupDigests,
      Map<String, List<String>> info, Clock clock) throws IOException {
    WarcDirectory directory = WarcDirectory.open(dir, prefix);
    try {
      return new WarcArchive(directory, maxFileSize, dedupDigests, info, clock);
    } catch (RuntimeException e) {
      directory.close();
      throw e;
    }
  }

  @Override
  public Path spillDirectory() {
    return dir;
  }

  @Override
  public IOException failure(IOException cause) {
    return new WarcWriteException(dir, cause);
  }

  @Override
  public StoredAs record(Exchange exchange) throws IOException {
    // An interrupt (a robots.txt fetch cut off at the end of a run) would close the channels used below under us.
    boolean interrupted = Thread.interrupted();
    try {
      return recordUninterrupted(exchange);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private StoredAs recordUninterrupted(Exchange exchange) throws IOException {
    // Digests, records and, for all but bodies over IN_MEMORY_RECORD, their compression happen on the recording
    // thread, outside the lock: the lock appends finished bytes (a large body is compressed as it is appended).
    // The payload digest is the archive's own, of the bytes it writes: an identical payload is decided on it.
    WarcCaptureRecord response;
    RecordDigests digests;
    StoredAs storedAs;
    byte[] compressedResponse = null;
    byte[] compressedRequest;
    try {
      digests = RecordDigests.of(exchange);
      WarcRevisit revisit = Revisits.of(exchange, digests); // a recrawl's unchanged page
      StoredAs repeated = revisit == null ? firstCaptures.repeated(exchange, digests) : null;
      if (repeated != null) {
        revisit = Revisits.identicalPayload(exchange, digests, repeated.uri(), repeated.date());
      }
      storedAs = revisit == null ? null : new StoredAs(revisit.refersToTargetURI().orElseThrow().toString(),
          Instant.parse(revisit.headers().first("WARC-Refers-To-Date").orElseThrow()));
      response = revisit != null ? revisit : WarcRecords.response(exchange, digests);
      compressedRequest = WarcRecords.compress(WarcRecords.request(exchange, digests, response.id()));
      if (exchange.body().size() <= IN_MEMORY_RECORD) {
        compressedResponse = WarcRecords.compress(response);
      }
    } catch (IOException e) {
      throw new WarcWriteException(dir, e); // the body's spill file could not be read back
    }
    synchronized (this) {
      if (closed) {
        log.debug("not recorded, the archive is closed: {}", exchange.url()); // a fetch cut off by the run's end
        return null;
      }
      if (broken != null) {
        throw new WarcWriteException(dir, broken);
      }
      try {
        if (file == null) {
          startFile();
        }
        if (compressedResponse != null) {
          byte[] pair = Arrays.copyOf(compressedResponse, compressedResponse.length + compressedRequest.length);
          System.arraycopy(compressedRequest, 0, pair, compressedResponse.length, compressedRequest.length);
          file.write(pair); // one write: a kill leaves both records or a torn tail the next run cuts away
        } else {
          GzipMemberWriter.write(WarcRecords.serialized(response), fileOutput()); // a large body, streamed
          file.write(compressedRequest);
        }
        exchanges++;
        if (file.getFilePointer() >= maxFileSize) {
          closeFile();
        }
      } catch (IOException e) {
        broken = e; // the file may end in a partial record now: the next run cuts it away
        throw new WarcWriteException(dir, e);
      }
    }
    if (storedAs == null) {
      firstCaptures.captured(exchange, digests, WarcRecords.warcDate(exchange.date())); // written: later copies refer to it
    }
    return storedAs;
  }

  /**
   * Responses this run stored as revisits of an identical payload archived already (another URL's, or this one's
   * earlier), and the payload bytes not written again for them.
   */
  public long[] identicalPayloads() {
    return firstCaptures.saved();
  }

  /** The open file as a stream, for a record too large to compress in memory. */
  private OutputStream fileOutput() {
    RandomAccessFile target = file;
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        target.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        target.write(b, off, len);
      }
    };
  }

  private void startFile() throws IOException {
    Instant now = WarcRecords.warcDate(clock.instant());
    openFile = directory.startFile(now);
    file = new RandomAccessFile(openFile.toFile(), "rw");
    String name = WarcDirectory.closedName(openFile).getFileName().toString();
    file.write(WarcRecords.compress(WarcRecords.warcinfo(name, now, info)));
  }

  private void closeFile() throws IOException {
    if (file == null) {
      return;
    }
    try {
      file.getFD().sync();
    } finally {
      file.close();
      file = null;
    }
    Path closedFile = directory.closeFile(openFile);
    openFile = null;
    files++;
    indexer.closed(closedFile);
  }

  /**
   * Forces what was written to disk, for the sync interval's guarantee after a power cut. The fsync happens outside
   * the lock: recording goes on meanwhile.
   */
  public void sync() throws IOException {
    RandomAccessFile current;
    synchronized (this) {
      current = broken == null ? file : null;
    }
    if (current == null) {
      return;
    }
    try {
      current.getFD().sync();
    } catch (IOException e) {
      synchronized (this) {
        if (file == current) {
          throw e;
        }
      }
      // the file was closed (and forced) meanwhile by a rotation or the end of the run
    }
  }

  /** Exchanges recorded so far. */
  public synchronized long exchanges() {
    return exchanges;
  }

  /** Files closed so far (a run's last file counts once {@link #close()} has closed it). */
  public synchronized int files() {
    return files;
  }

  public Path dir() {
    return dir;
  }

  /**
   * Closes the file being written, which then loses its {@code .open} suffix, and writes the directory's CDXJ index
   * (its closed files, those of earlier runs included).
   */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    boolean interrupted = Thread.interrupted();
    try {
      if (broken == null) {
        closeFile();
      } else if (file != null) {
        file.close(); // left .open: the next run repairs it
      }
      indexer.finish();
    } catch (InterruptedException e) {
      interrupted = true;
      throw new IOException("interrupted while indexing the WARC files of " + dir, e);
    } finally {
      indexer.stop();
      directory.close();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
