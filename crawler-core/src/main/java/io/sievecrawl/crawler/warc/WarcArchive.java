package io.sievecrawl.crawler.warc;

import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.fetch.CaptureBuffer;
import io.sievecrawl.crawler.fetch.Exchange;
import io.sievecrawl.crawler.fetch.ExchangeRecorder;
import io.sievecrawl.crawler.fetch.StoredAs;
import io.sievecrawl.sieve.Durable;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.io.SequenceInputStream;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.netpreserve.jwarc.Warcinfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes captured exchanges as WARC/1.1 (ISO 28500) files with jwarc: a {@code response} and a {@code request}
 * record per exchange, linked by {@code WARC-Concurrent-To}, with SHA-1 block and payload digests; one gzip member
 * per record; files named {@code PREFIX-TIMESTAMP-SERIAL.warc.gz}, written as {@code *.warc.gz.open} and renamed
 * when closed at the size limit or the end of the run, each opened by a {@code warcinfo} record.
 *
 * <p>A file left open by a killed process is repaired when the next run opens the directory: cut back to its last
 * complete record and closed. Serials go on from the highest in the directory. Each closed file is indexed in the
 * background, and {@link #close()} writes the directory's merged CDXJ index ({@link WarcIndex}).
 *
 * <p>Thread-safe: digests and compression happen on the recording thread; the archive's lock appends finished gzip
 * members (each exchange's two records in one write) and rotates files; a body over 1 MB is compressed as it is
 * appended, under the lock, rather than held in memory. Records are built and serialized by
 * jwarc; each is compressed as its own gzip member at the default level.
 */
public final class WarcArchive implements ExchangeRecorder, Closeable {
  /** Suffix of a file being written. */
  public static final String OPEN_SUFFIX = ".open";
  private static final Logger log = LoggerFactory.getLogger(WarcArchive.class);
  /** Records with bodies up to this size are compressed in memory, outside the lock; larger ones are streamed. */
  private static final long IN_MEMORY_RECORD = 1024 * 1024;
  private static final byte[] RECORD_END = {'\r', '\n', '\r', '\n'};
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS").withZone(ZoneOffset.UTC);

  private final Path dir;
  private final String prefix;
  private final long maxFileSize;
  private final Map<String, List<String>> info;
  private final FileChannel lock;
  private final Clock clock;
  private int nextSerial;
  private Path openFile;
  private RandomAccessFile file; // not a FileChannel: an interrupted thread would close a channel under the archive
  private IOException broken;
  private boolean closed;
  private long exchanges;
  private int files;
  private final WarcIndex.Indexer indexer;
  private final FirstCaptures firstCaptures;

  private WarcArchive(Path dir, String prefix, long maxFileSize, int dedupDigests, Map<String, List<String>> info,
      int nextSerial, FileChannel lock, Clock clock) {
    this.dir = dir;
    this.firstCaptures = new FirstCaptures(dedupDigests);
    this.lock = lock;
    this.clock = clock;
    this.prefix = prefix;
    this.maxFileSize = maxFileSize;
    this.info = info;
    this.nextSerial = nextSerial;
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
    Files.createDirectories(dir);
    FileChannel lock = lock(dir, prefix); // before the repair: another process's open file is not ours to repair
    try {
      return open(dir, prefix, maxFileSize, dedupDigests, info, lock, clock);
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  private static WarcArchive open(Path dir, String prefix, long maxFileSize, int dedupDigests,
      Map<String, List<String>> info, FileChannel lock, Clock clock) throws IOException {
    Pattern name = Pattern.compile(Pattern.quote(prefix) + "-\\d{17}-(\\d{5,})\\.warc\\.gz("
        + Pattern.quote(OPEN_SUFFIX) + ")?");
    int highest = 0;
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path file : entries.sorted().toList()) {
        String fileName = file.getFileName().toString();
        if (fileName.startsWith(CaptureBuffer.SPILL_PREFIX)) {
          Files.deleteIfExists(file);
          continue;
        }
        Matcher m = name.matcher(fileName);
        if (m.matches()) {
          highest = Math.max(highest, Integer.parseInt(m.group(1)));
          if (m.group(2) != null) {
            repair(file);
          }
        }
      }
    }
    return new WarcArchive(dir, prefix, maxFileSize, dedupDigests, info, highest + 1, lock, clock);
  }

  /**
   * Makes the WARC files of {@code dir} whole for reading after the fact (an index, a package): files a killed run
   * left open are repaired as the next run would repair them. Returns how many were.
   *
   * @throws IOException if a crawl is writing WARC files there now
   */
  public static int closeLeftovers(Path dir) throws IOException {
    List<FileChannel> locks = new java.util.ArrayList<>();
    try {
      try (Stream<Path> entries = Files.list(dir)) {
        for (Path file : entries.toList()) {
          String name = file.getFileName().toString();
          if (name.startsWith(".") && name.endsWith(".lock")) {
            locks.add(lock(dir, name.substring(1, name.length() - ".lock".length())));
          }
        }
      }
      int repaired = 0;
      try (Stream<Path> entries = Files.list(dir)) {
        for (Path file : entries.filter(f -> f.getFileName().toString().endsWith(".warc.gz" + OPEN_SUFFIX))
            .toList()) {
          repair(file);
          repaired++;
        }
      }
      return repaired;
    } finally {
      for (FileChannel lock : locks) {
        lock.close();
      }
    }
  }

  /**
   * Takes the directory for this prefix: one writer at a time, since files are repaired and serials counted on
   * opening. Held until {@link #close()}; the operating system releases it when a process dies.
   */
  private static FileChannel lock(Path dir, String prefix) throws IOException {
    FileChannel channel = FileChannel.open(dir.resolve("." + prefix + ".lock"), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE);
    FileLock held;
    try {
      held = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      held = null; // taken by this process already
    }
    if (held == null) {
      channel.close();
      throw new WarcInUseException("another sievecrawl is writing WARC files named " + prefix + "-* there; give each agent"
          + " its own --warc directory or " + Setting.WARC_PREFIX.key());
    }
    return channel;
  }

  /**
   * Closes a file a killed run left open: cuts it back to its last complete record (the record being written when
   * the process died is lost; its page is fetched again by the resumed crawl) and renames it, or deletes it when
   * not even its warcinfo record is complete.
   *
   * @return bytes cut off
   */
  static long repair(Path open) throws IOException {
    long cut;
    long kept;
    try (FileChannel file = FileChannel.open(open, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      kept = GzipMembers.completeLength(file);
      long intactAfter = kept < file.size() ? GzipMembers.intactMemberAfter(file, kept) : -1;
      if (intactAfter >= 0) {
        throw new WarcDamagedException(open + " is damaged at byte " + kept + ", with complete records after it (from"
            + " byte " + intactAfter + "): not the torn end a kill leaves, so nothing was cut; move the file out of "
            + open.getParent() + " to go on (its records before byte " + kept + " are intact)");
      }
      cut = file.size() - kept;
      if (cut > 0) {
        file.truncate(kept);
        file.force(true);
      }
    }
    String fileName = open.getFileName().toString();
    Path closed = open.resolveSibling(fileName.substring(0, fileName.length() - OPEN_SUFFIX.length()));
    if (kept == 0) {
      Files.delete(open);
      log.info("WARC file {} was left open by a run that did not finish and held no complete record: removed",
          open);
    } else {
      Files.move(open, closed, StandardCopyOption.ATOMIC_MOVE);
      log.info("WARC file {} was left open by a run that did not finish: {} closed as {}", open,
          cut > 0 ? String.format(Locale.ROOT, "cut back by %,d bytes to its last complete record and", cut)
              : "complete,", closed);
    }
    Durable.syncDirectory(open.getParent());
    return cut;
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
      response = revisit != null ? revisit : response(exchange, digests);
      compressedRequest = compress(request(exchange, digests, response.id()));
      if (exchange.body().size() <= IN_MEMORY_RECORD) {
        compressedResponse = compress(response);
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
          GzipMemberWriter.write(serialized(response), fileOutput()); // a large body, streamed
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
      firstCaptures.captured(exchange, digests, warcDate(exchange.date())); // written: later copies refer to it
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

  private static WarcResponse response(Exchange exchange, RecordDigests digests) throws IOException {
    byte[] head = exchange.responseHead();
    CaptureBuffer body = exchange.body();
    ReadableByteChannel block = Channels.newChannel(new SequenceInputStream(new ByteArrayInputStream(head),
        Channels.newInputStream(body.open())));
    WarcResponse.Builder response = new WarcResponse.Builder(exchange.url())
        .version(MessageVersion.WARC_1_1)
        .date(warcDate(exchange.date()))
        .body(MediaType.HTTP_RESPONSE, block, head.length + body.size())
        .blockDigest(digests.block())
        .payloadDigest(digests.payload());
    if (exchange.ip() != null) {
      response.ipAddress(exchange.ip());
    }
    if (exchange.truncation() != null) {
      response.truncated(exchange.truncation() == Exchange.Truncation.DISCONNECT
          ? WarcTruncationReason.DISCONNECT : WarcTruncationReason.LENGTH);
    }
    return response.build();
  }

  private static WarcRequest request(Exchange exchange, RecordDigests digests, URI responseId) {
    WarcRequest.Builder request = new WarcRequest.Builder(exchange.url())
        .version(MessageVersion.WARC_1_1)
        .date(warcDate(exchange.date()))
        .body(MediaType.HTTP_REQUEST, exchange.requestHead())
        .blockDigest(digests.request())
        .concurrentTo(responseId);
    if (exchange.ip() != null) {
      request.ipAddress(exchange.ip());
    }
    return request.build();
  }

  /**
   * A WARC-Date to the millisecond: WARC/1.1 allows any fraction of a second, but the clock's nanoseconds carry
   * nothing, and not every reader expects nine digits.
   */
  static Instant warcDate(Instant instant) {
    return instant.truncatedTo(ChronoUnit.MILLIS);
  }

  /** A record as WARC bytes: its header, its block, and the blank lines that end it. */
  private static InputStream serialized(WarcRecord record) throws IOException {
    return new SequenceInputStream(java.util.Collections.enumeration(List.of(
        new ByteArrayInputStream(record.serializeHeader()), record.body().stream(),
        new ByteArrayInputStream(RECORD_END))));
  }

  private static byte[] compress(WarcRecord record) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
    GzipMemberWriter.write(serialized(record), out);
    return out.toByteArray();
  }

  private void startFile() throws IOException {
    Instant now = warcDate(clock.instant());
    while (true) {
      String name = prefix + "-" + STAMP.format(now) + "-" + String.format("%05d", nextSerial++) + ".warc.gz";
      Path path = dir.resolve(name + OPEN_SUFFIX);
      try {
        Files.createFile(path);
      } catch (FileAlreadyExistsException e) {
        continue; // a file of that name exists already (a clock set back): take the next serial
      }
      Durable.syncDirectory(dir); // else a power cut could lose the whole file, however often it was forced
      openFile = path;
      file = new RandomAccessFile(path.toFile(), "rw");
      file.write(compress(new Warcinfo.Builder().version(MessageVersion.WARC_1_1).date(now).filename(name)
          .fields(info).build()));
      return;
    }
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
    String fileName = openFile.getFileName().toString();
    Path closedFile = openFile.resolveSibling(fileName.substring(0, fileName.length() - OPEN_SUFFIX.length()));
    Files.move(openFile, closedFile, StandardCopyOption.ATOMIC_MOVE);
    Durable.syncDirectory(dir);
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
      lock.close();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
