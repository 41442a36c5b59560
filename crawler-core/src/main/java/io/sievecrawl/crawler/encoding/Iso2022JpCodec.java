package io.sievecrawl.crawler.encoding;

import static io.sievecrawl.crawler.encoding.WebEncoding.Encoder.ENCODED;

import java.util.function.IntConsumer;

/**
 * ISO-2022-JP: 7-bit text that switches between ASCII, JIS X 0201 Roman, halfwidth katakana and JIS X 0208 by
 * escape sequences, decoded and encoded as the standard's state machines do.
 */
final class Iso2022JpCodec extends Codec {
  private static final int ESC = 0x1B;

  private enum State { ASCII, ROMAN, KATAKANA, LEAD_BYTE, TRAIL_BYTE, ESCAPE_START, ESCAPE }

  /** The indexes, read on the first text in ISO-2022-JP. */
  private static final class Tables {
    static final int[] JIS0208 = Indexes.get("jis0208");
    static final int[] KATAKANA = Indexes.get("iso-2022-jp-katakana");
    static final ReverseIndex REVERSE = new ReverseIndex(JIS0208);
  }

  @Override
  String decode(byte[] bytes, int offset, int length) {
    TextBuffer out = new TextBuffer(length);
    int end = offset + length;
    State state = State.ASCII;
    State outputState = State.ASCII;
    int lead = 0;
    boolean output = false; // whether the last thing read was an escape sequence that output nothing yet
    int i = offset;
    while (true) {
      int b = i < end ? bytes[i] & 0xFF : -1; // -1: the end
      switch (state) {
        case ASCII, ROMAN, KATAKANA, LEAD_BYTE -> {
          if (b < 0) {
            return out.toString();
          }
          i++;
          if (b == ESC) {
            state = State.ESCAPE_START;
            continue;
          }
          output = false;
          if (state == State.LEAD_BYTE && b >= 0x21 && b <= 0x7E) {
            lead = b;
            state = State.TRAIL_BYTE;
          } else {
            int codePoint = single(state, b);
            if (codePoint < 0) {
              out.error();
            } else {
              out.append(codePoint);
            }
          }
        }
        case TRAIL_BYTE -> {
          if (b < 0) {
            out.error();
            return out.toString();
          }
          i++;
          if (b == ESC) {
            state = State.ESCAPE_START;
            out.error();
            continue;
          }
          state = State.LEAD_BYTE;
          int codePoint = b >= 0x21 && b <= 0x7E ? Tables.JIS0208[(lead - 0x21) * 94 + b - 0x21] : Indexes.NONE;
          if (codePoint == Indexes.NONE) {
            out.error();
          } else {
            out.append(codePoint);
          }
        }
        case ESCAPE_START -> {
          if (b == 0x24 || b == 0x28) {
            lead = b;
            state = State.ESCAPE;
            i++;
            continue;
          }
          output = false; // the byte is read again in the state before the escape
          state = outputState;
          out.error();
        }
        case ESCAPE -> {
          State next = null;
          if (lead == 0x28 && b == 0x42) {
            next = State.ASCII;
          } else if (lead == 0x28 && b == 0x4A) {
            next = State.ROMAN;
          } else if (lead == 0x28 && b == 0x49) {
            next = State.KATAKANA;
          } else if (lead == 0x24 && (b == 0x40 || b == 0x42)) {
            next = State.LEAD_BYTE;
          }
          lead = 0;
          if (next != null) {
            i++;
            state = next;
            outputState = next;
            if (output) { // two escape sequences in a row
              out.error();
            }
            output = true;
            continue;
          }
          i--; // the byte after ESC is read again, and this one after it
          output = false;
          state = outputState;
          out.error();
        }
        default -> throw new AssertionError(state);
      }
    }
  }

  /** The code point of byte {@code b} in a single-byte state, or -1. */
  private static int single(State state, int b) {
    return switch (state) {
      case ASCII -> b <= 0x7F && b != 0x0E && b != 0x0F ? b : -1;
      case ROMAN -> b == 0x5C ? 0xA5 : b == 0x7E ? 0x203E : b <= 0x7F && b != 0x0E && b != 0x0F ? b : -1;
      case KATAKANA -> b >= 0x21 && b <= 0x5F ? 0xFF61 - 0x21 + b : -1;
      default -> -1; // LEAD_BYTE: a byte that leads nothing
    };
  }

  @Override
  WebEncoding.Encoder newEncoder() {
    return new Encoder();
  }

  /** The standard's ISO-2022-JP encoder, in state ASCII, Roman or jis0208. */
  private static final class Encoder implements WebEncoding.Encoder {
    private State state = State.ASCII; // ASCII, ROMAN, or LEAD_BYTE for jis0208

    @Override
    public int encode(int codePoint, IntConsumer out) {
      if ((state == State.ASCII || state == State.ROMAN)
          && (codePoint == 0x0E || codePoint == 0x0F || codePoint == ESC)) {
        return 0xFFFD; // the standard reports U+FFFD, not the code point, so that no escape gets through
      }
      if (state == State.ASCII && codePoint < 0x80) {
        out.accept(codePoint);
        return ENCODED;
      }
      if (state == State.ROMAN && ((codePoint < 0x80 && codePoint != 0x5C && codePoint != 0x7E)
          || codePoint == 0xA5 || codePoint == 0x203E)) {
        out.accept(codePoint == 0xA5 ? 0x5C : codePoint == 0x203E ? 0x7E : codePoint);
        return ENCODED;
      }
      if (codePoint < 0x80) {
        switchTo(State.ASCII, 0x28, 0x42, out);
        return encode(codePoint, out);
      }
      if (codePoint == 0xA5 || codePoint == 0x203E) {
        switchTo(State.ROMAN, 0x28, 0x4A, out);
        return encode(codePoint, out);
      }
      int c = codePoint == 0x2212 ? 0xFF0D : codePoint;
      if (c >= 0xFF61 && c <= 0xFF9F) {
        c = Tables.KATAKANA[c - 0xFF61];
      }
      int pointer = Tables.REVERSE.firstPointer(c);
      if (pointer < 0) {
        if (state == State.LEAD_BYTE) {
          switchTo(State.ASCII, 0x28, 0x42, out);
        }
        return codePoint;
      }
      if (state != State.LEAD_BYTE) {
        switchTo(State.LEAD_BYTE, 0x24, 0x42, out);
      }
      out.accept(pointer / 94 + 0x21);
      out.accept(pointer % 94 + 0x21);
      return ENCODED;
    }

    @Override
    public void finish(IntConsumer out) {
      if (state != State.ASCII) {
        switchTo(State.ASCII, 0x28, 0x42, out);
      }
    }

    private void switchTo(State next, int first, int second, IntConsumer out) {
      state = next;
      out.accept(ESC);
      out.accept(first);
      out.accept(second);
    }
  }
}
