package io.sievecrawl.crawler.url;

import com.ibm.icu.text.IDNA;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import okhttp3.HttpUrl;

/**
 * The canonical host of an http(s) URL: the WHATWG URL standard's host parser, then the limits of a host the
 * crawler can look up and fetch.
 *
 * <p>As browsers: an IPv6 literal in brackets in the RFC 5952 form (but an IPv4-mapped address is written as the
 * IPv4 address, which is what the HTTP client connects to and names in its {@code Host} header); otherwise the host is percent-decoded as UTF-8
 * and taken to ASCII by UTS #46 (non-transitional, CheckBidi and CheckJoiners on, CheckHyphens and the DNS length
 * checks off, UseSTD3ASCIIRules off), through ICU; a host of ASCII characters skips UTS #46 and is only lower-cased
 * (the standard's ASCII fast path: an {@code xn--} label is never decoded, so an invalid one cannot turn into
 * another name). A forbidden code point refuses the host, and a host whose last label is a number must be an IPv4
 * address ({@link IpAddresses}).
 *
 * <p>Then the crawler's own rules: trailing dots are dropped ({@code example.com.} is {@code example.com}); a name
 * must be one DNS can hold, labels of 1 to 63 letters, digits, {@code -} and {@code _}, 253 characters in all; and an
 * international name must be one OkHttp, which fetches it, reads as the same host (its IDNA table is older).
 */
final class Hosts {
  private static final IDNA UTS46 = IDNA.getUTS46Instance(
      IDNA.NONTRANSITIONAL_TO_ASCII | IDNA.CHECK_BIDI | IDNA.CHECK_CONTEXTJ);
  /** Errors the URL standard does not count: it runs UTS #46 with CheckHyphens and VerifyDnsLength off. */
  private static final Set<IDNA.Error> NOT_ERRORS = EnumSet.of(IDNA.Error.LEADING_HYPHEN,
      IDNA.Error.TRAILING_HYPHEN, IDNA.Error.HYPHEN_3_4, IDNA.Error.EMPTY_LABEL, IDNA.Error.LABEL_TOO_LONG,
      IDNA.Error.DOMAIN_NAME_TOO_LONG);

  private Hosts() {}

  /** The canonical form of the host {@code raw}, as written in a URL (an IPv6 literal with its brackets). */
  static String canonical(String raw) throws InvalidUrlException {
    if (raw.isEmpty()) {
      throw new InvalidUrlException("no host");
    }
    if (raw.charAt(0) == '[') {
      String address = raw.charAt(raw.length() - 1) == ']' ? IpAddresses.ipv6(raw.substring(1, raw.length() - 1))
          : null;
      if (address == null) {
        throw new InvalidUrlException("invalid IPv6 address '" + raw + "'");
      }
      String mapped = IpAddresses.mappedIpv4(address);
      return mapped != null ? mapped : "[" + address + "]";
    }
    String ascii = domainToAscii(percentDecode(raw), raw);
    if (ascii.isEmpty() || hasForbiddenCodePoint(ascii)) {
      throw new InvalidUrlException("invalid host '" + raw + "'");
    }
    if (IpAddresses.endsInANumber(ascii)) {
      String address = IpAddresses.ipv4(ascii);
      if (address == null) {
        throw new InvalidUrlException("invalid IPv4 address '" + raw + "'");
      }
      return address;
    }
    int end = ascii.length();
    while (end > 0 && ascii.charAt(end - 1) == '.') {
      end--;
    }
    String name = ascii.substring(0, end);
    if (!isDnsName(name) || IpAddresses.endsInANumber(name)) { // "1.2.." is no IPv4 address, nor a name
      throw new InvalidUrlException("host '" + raw + "' is not a DNS name (labels of 1 to 63 letters, digits, '-'"
          + " and '_', 253 characters in all)");
    }
    if (name.contains("xn--") && !name.equals(okHttpHost(name))) {
      throw new InvalidUrlException("host '" + raw + "'" + (raw.equalsIgnoreCase(name) ? "" : " (" + name + ")")
          + " cannot be fetched: the HTTP client reads its punycode differently");
    }
    return name;
  }

  /** UTS #46 ToASCII as the URL standard runs it, or only lower-casing an ASCII domain. */
  private static String domainToAscii(String domain, String raw) throws InvalidUrlException {
    if (isAscii(domain)) {
      return domain.toLowerCase(Locale.ROOT);
    }
    IDNA.Info info = new IDNA.Info();
    StringBuilder ascii = UTS46.nameToASCII(domain, new StringBuilder(domain.length() + 16), info);
    Set<IDNA.Error> errors = info.getErrors();
    if (!errors.isEmpty() && !NOT_ERRORS.containsAll(errors)) {
      throw new InvalidUrlException("invalid international host name '" + raw + "'");
    }
    return ascii.toString();
  }

  private static boolean isAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /** The URL standard's forbidden domain code points, of an ASCII host. */
  private static boolean hasForbiddenCodePoint(String host) {
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      if (c <= 0x20 || c == 0x7f || "#%/:<>?@[\\]^|".indexOf(c) >= 0) {
        return true;
      }
    }
    return false;
  }

  /** Labels of 1 to 63 characters of a-z, 0-9, '_' and '-', at most 253 characters in all. */
  private static boolean isDnsName(String host) {
    if (host.isEmpty() || host.length() > 253) {
      return false;
    }
    int labelStart = 0;
    for (int i = 0; i <= host.length(); i++) {
      char c = i < host.length() ? host.charAt(i) : '.';
      if (c == '.') {
        if (i == labelStart || i - labelStart > 63) {
          return false;
        }
        labelStart = i + 1;
      } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) {
        return false;
      }
    }
    return true;
  }

  /** The host OkHttp makes of {@code host}, or null if it refuses it. */
  private static String okHttpHost(String host) {
    try {
      return new HttpUrl.Builder().scheme("http").host(host).build().host();
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Decodes every %XX escape, the bytes read as UTF-8 (a malformed sequence as U+FFFD, which no host may hold). */
  private static String percentDecode(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%' && i + 2 < s.length() && PercentEncoding.isHex(s.charAt(i + 1))
          && PercentEncoding.isHex(s.charAt(i + 2))) {
        bytes.write(Integer.parseInt(s, i + 1, i + 3, 16));
        i += 2;
      } else {
        int codePoint = s.codePointAt(i);
        bytes.writeBytes(Character.toString(codePoint).getBytes(StandardCharsets.UTF_8));
        i += Character.charCount(codePoint) - 1;
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
