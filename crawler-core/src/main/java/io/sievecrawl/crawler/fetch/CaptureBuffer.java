package io.sievecrawl.crawler.fetch;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import okio.Buffer;

/**
 * The bytes of one captured body: on the heap up to {@value #IN_MEMORY} bytes, then in a temporary file, so that
 * many large bodies captured at once do not fill the heap. The file is opened to be deleted on close (on Linux it
 * is unlinked at once, so a killed process leaves nothing behind); one left anyway is named
 * {@code .sievecrawl-capture-*.tmp} and removed when the next run opens the directory.
 */
public final class CaptureBuffer implements Closeable {
  /** Prefix of spill files, for cleaning up after a killed process. */
  public static final String SPILL_PREFIX = ".sievecrawl-capture-";
  static final int IN_MEMORY = 256 * 1024;

  private final Path spillDir;
  private final Buffer memory = new Buffer();
  private FileChannel file;
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
        Path path = Files.createTempFile(spillDir, SPILL_PREFIX, ".tmp");
        file = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE,
            StandardOpenOption.DELETE_ON_CLOSE);
        writeFully(memory.readByteArray());
      }
      Buffer part = new Buffer();
      source.copyTo(part, offset, byteCount);
      writeFully(part.readByteArray());
    }
    size += byteCount;
  }

  private void writeFully(byte[] bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      file.write(buffer);
    }
  }

  public long size() {
    return size;
  }

  /** The bytes from the start; read them before closing this buffer. */
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

      @Override
      public int read(ByteBuffer dst) throws IOException {
        if (position >= size) {
          return -1;
        }
        int n = file.read(dst, position);
        if (n > 0) {
          position += n;
        }
        return n;
      }

      @Override
      public boolean isOpen() {
        return file.isOpen();
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public void close() throws IOException {
    memory.clear();
    if (file != null) {
      file.close();
    }
  }
}
