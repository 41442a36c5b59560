package io.sievecrawl.crawler.warc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Checks a closed WARC file as its bytes stream by: every gzip member (one per record) whole and intact, its
 * CRC-32 and length matching what it holds, and then every index line made of the file pointing at a record that is
 * there (from a member's start to a member's end, inside the file).
 *
 * <p>A file cut off, bytes flipped, or a cached index of an older, longer copy of the file is refused with a
 * {@link WarcDamagedException} naming the file, the byte where the damage is and what is wrong there. The check
 * is fed the bytes a package reads anyway ({@link #update}); it inflates each record once and keeps one long per
 * record.
 */
final class WarcFileCheck {
  /*
   * A push parser over the gzip framing (RFC 1952): a member is a header (10 bytes, then the optional fields its
   * flags announce), deflate data, and a trailer of CRC-32 and length of the inflated bytes. The inflater is given
   * each chunk as it comes; once a member's data ends, what is left of the chunk is its trailer and the next member.
   */
  private static final int FHCRC = 0x02;
  private static final int FEXTRA = 0x04;
  private static final int FNAME = 0x08;
  private static final int FCOMMENT = 0x10;

  private enum State { FIXED_HEADER, EXTRA_LENGTH, EXTRA, NAME, COMMENT, HEADER_CRC, DATA, TRAILER }

  private final Path file;
  private final Inflater inflater = new Inflater(true);
  private final CRC32 crc = new CRC32();
  private final byte[] out = new byte[64 * 1024];
  private final byte[] trailer = new byte[8];
  private State state = State.FIXED_HEADER;
  private int flags;
  private int needed; // bytes still to read in the present header field or the trailer
  private int extraLow; // the low byte of the extra field's length
  private long position; // bytes of the file seen
  private long memberStart; // where the member being read starts
  private long[] starts = new long[1024]; // where each member starts, ascending
  private int members;

  WarcFileCheck(Path file) {
    this.file = file;
  }

  /** Reads {@code file} whole through the check and checks {@code index} against it. */
  static void scan(Path file, List<String> index) throws IOException {
    WarcFileCheck check = new WarcFileCheck(file);
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        check.update(buffer, 0, n);
      }
    }
    check.finish(index);
  }

  /** The next {@code length} bytes of the file. */
  void update(byte[] bytes, int offset, int length) throws WarcDamagedException {
    long base = position - offset; // the file position of bytes[0]
    int at = offset;
    int end = offset + length;
    while (at < end) {
      if (state == State.DATA) {
        at = inflate(bytes, at, end);
      } else {
        header(bytes[at] & 0xff, base + at);
        at++;
      }
    }
    position = base + end;
  }

  /** Consumes the byte at file position {@code here} of a header or a trailer. */
  private void header(int value, long here) throws WarcDamagedException {
    switch (state) {
      case FIXED_HEADER -> {
        long index = here - memberStart;
        if (index == 0) {
          memberStarted();
        }
        if (index == 0 && value != 0x1f || index == 1 && value != 0x8b) {
          throw damaged(memberStart, "no record starts there (a record is a gzip member, which starts with 1f 8b)");
        }
        if (index == 2 && value != 8) {
          throw damaged(memberStart, "the gzip member there is not deflate-compressed (method " + value + ")");
        }
        if (index == 3) {
          flags = value;
        }
        if (index == 9) {
          nextHeaderField();
        }
      }
      case EXTRA_LENGTH -> {
        if (--needed == 1) {
          extraLow = value;
        } else {
          needed = extraLow | value << 8;
          state = State.EXTRA;
          if (needed == 0) {
            headerFieldRead(FEXTRA);
          }
        }
      }
      case EXTRA -> {
        if (--needed == 0) {
          headerFieldRead(FEXTRA);
        }
      }
      case NAME, COMMENT -> {
        if (value == 0) {
          headerFieldRead(state == State.NAME ? FNAME : FCOMMENT);
        }
      }
      case HEADER_CRC -> {
        if (--needed == 0) {
          headerFieldRead(FHCRC);
        }
      }
      case TRAILER -> {
        trailer[8 - needed] = (byte) value;
        if (--needed == 0) {
          memberEnded(here + 1);
        }
      }
      default -> throw new IllegalStateException(state.name());
    }
  }

  private void headerFieldRead(int flag) {
    flags &= ~flag;
    nextHeaderField();
  }

  /** Moves to the next optional header field the flags announce, or to the data. */
  private void nextHeaderField() {
    if ((flags & FEXTRA) != 0) {
      state = State.EXTRA_LENGTH;
      needed = 2;
    } else if ((flags & FNAME) != 0) {
      state = State.NAME;
    } else if ((flags & FCOMMENT) != 0) {
      state = State.COMMENT;
    } else if ((flags & FHCRC) != 0) {
      state = State.HEADER_CRC;
      needed = 2;
    } else {
      state = State.DATA;
      inflater.reset();
      crc.reset();
    }
  }

  private void memberStarted() {
    if (members == starts.length) {
      starts = Arrays.copyOf(starts, members * 2);
    }
    starts[members++] = memberStart;
  }

  /** Inflates from {@code at}; returns where the member's data ended in the chunk, or {@code end}. */
  private int inflate(byte[] bytes, int at, int end) throws WarcDamagedException {
    inflater.setInput(bytes, at, end - at);
    try {
      while (!inflater.finished()) {
        int n = inflater.inflate(out);
        crc.update(out, 0, n);
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          break;
        }
      }
    } catch (DataFormatException e) {
      throw damaged(memberStart, "the record there is not valid compressed data (" + e.getMessage() + ")");
    }
    if (!inflater.finished()) {
      return end;
    }
    state = State.TRAILER;
    needed = 8;
    return end - inflater.getRemaining();
  }

  /** The trailer of the member ended before file position {@code end}: checks it, and a new member may start. */
  private void memberEnded(long end) throws WarcDamagedException {
    long storedCrc = littleEndian(0);
    long storedSize = littleEndian(4);
    if (storedCrc != crc.getValue()) {
      throw damaged(memberStart, String.format(Locale.ROOT, "the record there fails its CRC-32 check (stored %08x,"
          + " computed %08x): its bytes were changed", storedCrc, crc.getValue()));
    }
    if (storedSize != (inflater.getBytesWritten() & 0xffffffffL)) {
      throw damaged(memberStart, "the record there holds " + inflater.getBytesWritten() + " bytes, but its trailer"
          + " says " + storedSize);
    }
    memberStart = end;
    state = State.FIXED_HEADER;
    flags = 0;
  }

  private long littleEndian(int from) {
    return (trailer[from] & 0xffL) | (trailer[from + 1] & 0xffL) << 8 | (trailer[from + 2] & 0xffL) << 16
        | (trailer[from + 3] & 0xffL) << 24;
  }

  /**
   * Checks that the file ended at a record's end and that every line of {@code index} (CDXJ lines of this file,
   * with {@code "offset"} and {@code "length"}) points at a whole record of it.
   */
  void finish(List<String> index) throws WarcDamagedException {
    inflater.end();
    if (state != State.FIXED_HEADER || position > memberStart) {
      throw damaged(memberStart, "the file ends inside the record that starts there (the file has " + position
          + " bytes): it was cut off");
    }
    if (members == 0) {
      throw damaged(0, "the file is empty");
    }
    for (String line : index) {
      long offset = field(line, "offset");
      long length = field(line, "length");
      if (offset < 0 || length <= 0) {
        continue; // a line without a place: nothing to check
      }
      long recordEnd = offset + length;
      String indexed = " after it was indexed in " + WarcIndex.sidecarOf(file);
      if (recordEnd > position) {
        throw damaged(offset, "the index holds a record of " + length + " bytes there, past the end of the file ("
            + position + " bytes): the file was cut off" + indexed);
      }
      if (Arrays.binarySearch(starts, 0, members, offset) < 0) {
        throw damaged(offset, "the index holds a record there, but none starts there: the file was changed"
            + indexed);
      }
      if (recordEnd < position && Arrays.binarySearch(starts, 0, members, recordEnd) < 0) {
        throw damaged(offset, "the index holds a record of " + length + " bytes there, but the record there is"
            + " not that long: the file was changed" + indexed);
      }
    }
  }

  /** A number field of a CDXJ line ({@code "offset": "123"} or {@code "offset": 123}), or -1. */
  static long field(String line, String name) {
    int key = line.indexOf("\"" + name + "\"");
    if (key < 0) {
      return -1;
    }
    int i = line.indexOf(':', key) + 1;
    while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '"')) {
      i++;
    }
    int start = i;
    while (i < line.length() && Character.isDigit(line.charAt(i))) {
      i++;
    }
    return i > start ? Long.parseLong(line.substring(start, i)) : -1;
  }

  private WarcDamagedException damaged(long at, String what) {
    inflater.end();
    return new WarcDamagedException(file + " is damaged at byte " + at + ": " + what);
  }
}
