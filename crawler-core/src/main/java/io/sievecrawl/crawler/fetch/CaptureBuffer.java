package io.sievecrawl.crawler.fetch;

import java.io.Closeable;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import okio.Buffer;

/**
 * The bytes of one captured body: on the heap up to {@value #IN_MEMORY} bytes, then in a temporary file, so that
 * many large bodies captured at once do not fill the heap. The file is unlinked as soon as it is open (where the
 * system allows), so a killed process leaves nothing behind; one left anyway is named
 * {@code .sievecrawl-capture-*.tmp} and removed when the next run opens the directory.
 *
 * <p>Reads and writes go through {@link RandomAccessFile}, not a {@code FileChannel}: an interrupted thread would
 * close a channel under it. Used by one thread at a time.
 */
public final class CaptureBuffer implements Closeable {
  /** Prefix of spill files, for cleaning up after a killed process. */
  public static final String SPILL_PREFIX = ".sievecrawl-capture-";
  static final int IN_MEMORY = 256 * 1024;

  private final Path spillDir;
  private final Buffer memory = new Buffer();
  private RandomAccessFile file;
  private Path path; // null once unlinked
  private long size;

  public CaptureBuffer(Path spillDir) {
    this.spillDir = spillDir;
  }

  /** Appends {@code byteCount} bytes of {@code source} from {@code offset}, leaving {@code source} as it was. */
  public void append(Buffer source, long offset, long byteCount) throws IOException {
    if (file == null && size + byteCount <= IN_MEMORY) {
      source.copyTo(memory, offset, byteCount);
    } else {
      if (file == null) {
        spill();
      }
      Buffer part = new Buffer();
      source.copyTo(part, offset, byteCount);
      file.seek(size);
      file.write(part.readByteArray());
    }
    size += byteCount;
  }

  private void spill() throws IOException {
    Path created = Files.createTempFile(spillDir, SPILL_PREFIX, ".tmp");
    try {
      file = new RandomAccessFile(created.toFile(), "rw");
    } catch (IOException e) {
      Files.deleteIfExists(created);
      throw e;
    }
    path = created;
    try {
      Files.delete(created); // the open file lives on until closed
      path = null;
    } catch (IOException e) {
      // a system that cannot unlink open files: deleted on close instead
    }
    file.write(memory.readByteArray());
  }

  public long size() {
    return size;
  }

  /** The bytes from the start; read them before closing this buffer, one reader at a time. */
  public ReadableByteChannel open() {
    if (file == null) {
      Buffer copy = memory.copy();
      return new ReadableByteChannel() {
        private boolean open = true;

        @Override
        public int read(ByteBuffer dst) throws IOException {
          return copy.exhausted() ? -1 : copy.read(dst);
        }

        @Override
        public boolean isOpen() {
          return open;
        }

        @Override
        public void close() {
          open = false;
          copy.clear();
        }
      };
    }
    return new ReadableByteChannel() {
      private long position;
      private final byte[] chunk = new byte[16 * 1024];

      @Override
      public int read(ByteBuffer dst) throws IOException {
        if (position >= size) {
          return -1;
        }
        file.seek(position);
        int n = file.read(chunk, 0, (int) Math.min(Math.min(chunk.length, dst.remaining()), size - position));
        if (n > 0) {
          dst.put(chunk, 0, n);
          position += n;
        }
        return n;
      }

      @Override
      public boolean isOpen() {
        return true;
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public void close() throws IOException {
    memory.clear();
    if (file != null) {
      try {
        file.close();
      } finally {
        if (path != null) {
          Files.deleteIfExists(path);
        }
      }
    }
  }
}
