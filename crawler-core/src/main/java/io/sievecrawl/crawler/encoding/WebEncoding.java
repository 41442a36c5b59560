package io.sievecrawl.crawler.encoding;

import java.util.Map;
import java.util.function.IntConsumer;

/**
 * An encoding of the WHATWG Encoding Standard, the one browsers use for pages: its name, its decoder and its
 * encoder, each as the standard defines it. Labels map to encodings as the standard's {@code encodings.json} says
 * ({@code euc-kr} is the windows-949 superset, {@code gb2312} and {@code gbk} read as gb18030, {@code shift_jis} is
 * windows-31j, {@code big5} is Big5-HKSCS, {@code iso-8859-1} and {@code us-ascii} are windows-1252, {@code
 * iso-2022-kr} is the replacement encoding); the legacy encodings decode from the standard's own index tables
 * ({@code indexes.json}), not from the JDK's charsets, which differ in many places (see {@link Codec}).
 *
 * <p>Instances are unique per encoding (compare with {@code ==}) and thread-safe; an {@link Encoder} is not.
 */
public final class WebEncoding {
  private static final Map<String, WebEncoding> BY_NAME = Codecs.all();
  /** UTF-8. */
  public static final WebEncoding UTF_8 = BY_NAME.get("UTF-8");
  /** windows-1252, the standard's default for a document that declares no encoding. */
  public static final WebEncoding WINDOWS_1252 = BY_NAME.get("windows-1252");
  /** UTF-16BE, which a byte-order mark FE FF names. */
  public static final WebEncoding UTF_16BE = BY_NAME.get("UTF-16BE");
  /** UTF-16LE, which a byte-order mark FF FE names. */
  public static final WebEncoding UTF_16LE = BY_NAME.get("UTF-16LE");

  private final String name;
  private final Codec codec;

  WebEncoding(String name, Codec codec) {
    this.name = name;
    this.codec = codec;
  }

  /**
   * The encoding a label names, as the standard's "get an encoding" reads it (ASCII white space around it ignored,
   * ASCII case-insensitive), or {@code null} if it names none.
   */
  public static WebEncoding forLabel(String label) {
    if (label == null) {
      return null;
    }
    String name = Labels.nameOf(label);
    return name == null ? null : BY_NAME.get(name);
  }

  /** The encoding's name as the standard writes it ({@code UTF-8}, {@code Shift_JIS}, {@code gb18030}, ...). */
  public String name() {
    return name;
  }

  /** The text of {@code bytes[offset, offset + length)}, malformed input replaced by U+FFFD as the standard does. */
  public String decode(byte[] bytes, int offset, int length) {
    java.util.Objects.checkFromIndexSize(offset, length, bytes.length);
    return codec.decode(bytes, offset, length);
  }

  /** The text of {@code bytes}: {@link #decode(byte[], int, int)} over all of them. */
  public String decode(byte[] bytes) {
    return codec.decode(bytes, 0, bytes.length);
  }

  /**
   * The standard's "get an output encoding": the encoding a URL's query and a form take in a document of this
   * encoding, UTF-8 for UTF-16 and the replacement encoding (which have no encoder), else this one.
   */
  public WebEncoding forUrls() {
    return codec.encodes() ? this : UTF_8;
  }

  /** A new encoder for one text; only for an encoding that {@link #forUrls()} returns. */
  public Encoder newEncoder() {
    if (!codec.encodes()) {
      throw new IllegalStateException(name + " has no encoder");
    }
    return codec.newEncoder();
  }

  @Override
  public String toString() {
    return name;
  }

  /**
   * The standard's encoder for one text, fed one code point at a time. Stateful for ISO-2022-JP (which switches
   * character sets by escape sequences), so one per text; not thread-safe.
   */
  public interface Encoder {
    /** What {@link #encode} returns when it wrote the code point. */
    int ENCODED = -1;

    /**
     * Writes the bytes of {@code codePoint}, a Unicode scalar value, to {@code out} and returns {@link #ENCODED};
     * or, if the encoding has no bytes for it, returns the code point the standard's error reports, for the caller
     * to write its own way (a URL's query writes {@code &#NNNN;}): the code point itself, or U+FFFD for the
     * escape and shift controls ISO-2022-JP cannot pass through. Bytes may be written even then: ISO-2022-JP's
     * return to ASCII.
     */
    int encode(int codePoint, IntConsumer out);

    /** Writes what the text ends with: ISO-2022-JP's return to ASCII if it left it, nothing otherwise. */
    default void finish(IntConsumer out) {}
  }
}
