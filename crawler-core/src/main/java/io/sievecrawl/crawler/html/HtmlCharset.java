package io.sievecrawl.crawler.html;

import io.sievecrawl.crawler.encoding.WebEncoding;

/**
 * The encoding of an HTML page's bytes, decided before parsing as Chromium decides it: a byte-order mark, else the
 * charset of the Content-Type header, else an XML declaration's {@code encoding} at the very start (which a
 * {@code <meta>} declaration after it overrides), else a {@code <meta charset>} or {@code <meta http-equiv=
 * "Content-Type">} ({@link MetaCharsetScan}: anywhere in the head, and within the first 1,024 bytes past it), else
 * windows-1252, the Encoding Standard's default for a page that declares nothing.
 *
 * <p>Labels are read as the Encoding Standard reads them ({@link WebEncoding#forLabel}); an unknown one is passed
 * over. A declaration in the page naming UTF-16 means UTF-8 (the bytes read as ASCII), and one naming
 * x-user-defined means windows-1252, as the HTML standard says; the header may name either.
 *
 * <p>Like Chromium and Firefox, a page that declares nothing is windows-1252 even when its bytes are valid UTF-8:
 * browsers detect UTF-8 only in local files, so that sites label it. (Chromium also guesses legacy encodings of
 * unlabelled pages, such as Shift_JIS, with its Compact Encoding Detector; this does not.)
 */
final class HtmlCharset {
  /** How to decode a body: the encoding, and where the text starts (after a byte-order mark). */
  record Decision(WebEncoding encoding, int offset) {
    Decoded decode(byte[] body) {
      return new Decoded(encoding.decode(body, offset, body.length - offset), encoding);
    }
  }

  /** A page's text, and the encoding it was decoded with: the document's encoding, in which its links' queries go. */
  record Decoded(String text, WebEncoding encoding) {}

  private HtmlCharset() {}

  /** @param headerCharset the charset parameter of the Content-Type header, or {@code null} */
  static Decision of(byte[] body, String headerCharset) {
    if (startsWith(body, 0xEF, 0xBB, 0xBF)) {
      return new Decision(WebEncoding.UTF_8, 3);
    }
    if (startsWith(body, 0xFE, 0xFF)) {
      return new Decision(WebEncoding.UTF_16BE, 2);
    }
    if (startsWith(body, 0xFF, 0xFE)) {
      return new Decision(WebEncoding.UTF_16LE, 2);
    }
    WebEncoding fromHeader = WebEncoding.forLabel(headerCharset);
    if (fromHeader != null) {
      return new Decision(fromHeader, 0);
    }
    if (startsWith(body, '<', 0, '?', 0, 'x', 0)) { // an XML declaration in UTF-16, without a byte-order mark
      return new Decision(WebEncoding.UTF_16LE, 0);
    }
    if (startsWith(body, 0, '<', 0, '?', 0, 'x')) {
      return new Decision(WebEncoding.UTF_16BE, 0);
    }
    WebEncoding fromMeta = MetaCharsetScan.scan(body, 0);
    if (fromMeta != null) {
      return new Decision(asDeclaredInPage(fromMeta, true), 0);
    }
    WebEncoding fromXml = xmlDeclaration(body);
    return new Decision(fromXml == null ? WebEncoding.WINDOWS_1252 : asDeclaredInPage(fromXml, false), 0);
  }

  /** What an encoding declared by a page's own bytes means: UTF-16 is UTF-8, and in a meta, x-user-defined is windows-1252. */
  private static WebEncoding asDeclaredInPage(WebEncoding declared, boolean inMeta) {
    if (declared == WebEncoding.UTF_16BE || declared == WebEncoding.UTF_16LE) {
      return WebEncoding.UTF_8;
    }
    return inMeta && declared.name().equals("x-user-defined") ? WebEncoding.WINDOWS_1252 : declared;
  }

  /** The encoding of an XML declaration the page starts with ({@code <?xml version="1.0" encoding="..."?>}), or null. */
  private static WebEncoding xmlDeclaration(byte[] body) {
    if (!startsWith(body, '<', '?', 'x', 'm', 'l')) {
      return null;
    }
    int gt = 5;
    while (gt < body.length && body[gt] != '>') {
      gt++;
    }
    if (gt == body.length) {
      return null; // not closed: no declaration
    }
    String declaration = new String(body, 0, gt, java.nio.charset.StandardCharsets.ISO_8859_1);
    int i = declaration.indexOf("encoding");
    if (i < 0) {
      return null;
    }
    i += 8;
    while (i < gt && declaration.charAt(i) <= ' ') {
      i++;
    }
    if (i >= gt || declaration.charAt(i) != '=') {
      return null;
    }
    i++;
    while (i < gt && declaration.charAt(i) <= ' ') {
      i++;
    }
    if (i >= gt || (declaration.charAt(i) != '"' && declaration.charAt(i) != '\'')) {
      return null;
    }
    int close = declaration.indexOf(declaration.charAt(i), i + 1);
    return close < 0 ? null : WebEncoding.forLabel(declaration.substring(i + 1, close));
  }

  private static boolean startsWith(byte[] body, int... bytes) {
    if (body.length < bytes.length) {
      return false;
    }
    for (int i = 0; i < bytes.length; i++) {
      if ((body[i] & 0xFF) != bytes[i]) {
        return false;
      }
    }
    return true;
  }
}
