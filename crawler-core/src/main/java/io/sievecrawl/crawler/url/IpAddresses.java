package io.sievecrawl.crawler.url;

/**
 * IP address hosts as the WHATWG URL standard parses and serializes them, so that every way a browser accepts of
 * writing one address gives one canonical host: IPv4 in dotted-decimal ({@code 127.1}, {@code 0x7f.1},
 * {@code 0177.0.0.1} and {@code 2130706433} are all {@code 127.0.0.1}), IPv6 in the RFC 5952 text form (lower-case
 * hex, no leading zeros, the first longest run of two or more zero pieces as {@code ::}, IPv4-mapped addresses in
 * hex as browsers write them: {@code [::ffff:127.0.0.1]} is {@code [::ffff:7f00:1]}, which {@link Hosts} then writes
 * as {@code 127.0.0.1}).
 */
final class IpAddresses {
  private IpAddresses() {}

  /**
   * The URL standard's "ends in a number": whether the last label of an ASCII host (after a trailing dot) is a
   * decimal number or a {@code 0x} hex number. Such a host must parse as an IPv4 address or the URL is invalid.
   */
  static boolean endsInANumber(String host) {
    int end = host.length();
    if (end > 0 && host.charAt(end - 1) == '.') {
      end--;
    }
    int start = host.lastIndexOf('.', end - 1) + 1;
    if (start >= end) {
      return false;
    }
    boolean digits = true;
    for (int i = start; i < end; i++) {
      char c = host.charAt(i);
      digits &= c >= '0' && c <= '9';
    }
    return digits || parseNumber(host, start, end) >= 0;
  }

  /** The dotted-decimal form of an IPv4 host in any form the URL standard's IPv4 parser accepts, or null. */
  static String ipv4(String host) {
    int end = host.length();
    if (end > 0 && host.charAt(end - 1) == '.' && end > 1) {
      end--; // one trailing dot is allowed
    }
    long[] numbers = new long[4];
    int parts = 0;
    int start = 0;
    while (start <= end) {
      int dot = host.indexOf('.', start);
      int partEnd = dot < 0 || dot > end ? end : dot;
      if (parts == 4) {
        return null;
      }
      long number = parseNumber(host, start, partEnd);
      if (number < 0) {
        return null;
      }
      numbers[parts++] = number;
      start = partEnd + 1;
    }
    for (int i = 0; i < parts - 1; i++) {
      if (numbers[i] > 255) {
        return null;
      }
    }
    long last = numbers[parts - 1];
    if (last >= 1L << (8 * (5 - parts))) {
      return null;
    }
    long address = last;
    for (int i = 0; i < parts - 1; i++) {
      address += numbers[i] << (8 * (3 - i));
    }
    return (address >>> 24) + "." + ((address >>> 16) & 0xFF) + "." + ((address >>> 8) & 0xFF) + "." + (address & 0xFF);
  }

  /**
   * The URL standard's "IPv4 number parser" on {@code s[from, to)}: decimal, {@code 0x} hex or {@code 0}-prefixed
   * octal; -1 for failure, and for numbers too large to be any part of an address.
   */
  private static long parseNumber(String s, int from, int to) {
    if (from >= to) {
      return -1;
    }
    int radix = 10;
    if (to - from >= 2 && s.charAt(from) == '0' && (s.charAt(from + 1) == 'x' || s.charAt(from + 1) == 'X')) {
      radix = 16;
      from += 2;
    } else if (to - from >= 2 && s.charAt(from) == '0') {
      radix = 8;
      from += 1;
    }
    long value = 0;
    for (int i = from; i < to; i++) {
      int digit = Character.digit(s.charAt(i), radix);
      if (digit < 0 || s.charAt(i) >= 0x80) {
        return -1; // "4294967296a" is no number, however large its digits before the 'a'
      }
      value = Math.min(value * radix + digit, 1L << 40); // too large for any part, and still a number
    }
    return value;
  }

  /**
   * The dotted-decimal IPv4 address an IPv4-mapped IPv6 address ({@code ::ffff:0:0/96}) maps, given in the form
   * {@link #ipv6} returns ({@code ::ffff:7f00:1} is {@code 127.0.0.1}), or null for any other address.
   */
  static String mappedIpv4(String ipv6) {
    int colon = ipv6.indexOf(':', 7);
    if (!ipv6.startsWith("::ffff:") || colon < 0 || ipv6.indexOf(':', colon + 1) >= 0) {
      return null;
    }
    int high = Integer.parseInt(ipv6, 7, colon, 16);
    int low = Integer.parseInt(ipv6, colon + 1, ipv6.length(), 16);
    return (high >> 8) + "." + (high & 0xff) + "." + (low >> 8) + "." + (low & 0xff);
  }

  /**
   * The RFC 5952 text of an IPv6 address (without brackets) as the URL standard's IPv6 parser reads it, or null:
   * hex pieces, one {@code ::}, an embedded dotted-decimal IPv4 address at the end; no zone.
   */
  static String ipv6(String s) {
    int[] address = new int[8];
    int piece = 0;
    int compress = -1;
    int i = 0;
    int n = s.length();
    if (i < n && s.charAt(i) == ':') {
      if (i + 1 >= n || s.charAt(i + 1) != ':') {
        return null;
      }
      i += 2;
      compress = ++piece;
    }
    while (i < n) {
      if (piece == 8) {
        return null;
      }
      if (s.charAt(i) == ':') {
        if (compress >= 0) {
          return null;
        }
        i++;
        compress = ++piece;
        continue;
      }
      int value = 0;
      int length = 0;
      while (length < 4 && i < n && Character.digit(s.charAt(i), 16) >= 0 && s.charAt(i) < 0x80) {
        value = value * 16 + Character.digit(s.charAt(i), 16);
        i++;
        length++;
      }
      if (i < n && s.charAt(i) == '.') {
        if (length == 0 || piece > 6) {
          return null;
        }
        i -= length;
        int numbersSeen = 0;
        while (i < n) {
          if (numbersSeen > 0) {
            if (s.charAt(i) == '.' && numbersSeen < 4) {
              i++;
            } else {
              return null;
            }
          }
          if (i >= n || s.charAt(i) < '0' || s.charAt(i) > '9') {
            return null;
          }
          int part = -1;
          while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            int digit = s.charAt(i) - '0';
            if (part == 0) {
              return null; // no leading zeros
            }
            part = part < 0 ? digit : part * 10 + digit;
            if (part > 255) {
              return null;
            }
            i++;
          }
          address[piece] = address[piece] * 0x100 + part;
          numbersSeen++;
          if (numbersSeen == 2 || numbersSeen == 4) {
            piece++;
          }
        }
        if (numbersSeen != 4) {
          return null;
        }
        break;
      } else if (i < n && s.charAt(i) == ':') {
        i++;
        if (i >= n) {
          return null;
        }
      } else if (i < n) {
        return null;
      }
      address[piece++] = value;
    }
    if (compress >= 0) {
      int swaps = piece - compress;
      piece = 7;
      while (piece != 0 && swaps > 0) {
        int t = address[piece];
        address[piece] = address[compress + swaps - 1];
        address[compress + swaps - 1] = t;
        piece--;
        swaps--;
      }
    } else if (piece != 8) {
      return null;
    }
    return serialize(address);
  }

  /** RFC 5952 section 4 (and the URL standard's IPv6 serializer). */
  private static String serialize(int[] address) {
    int bestStart = -1;
    int bestLength = 1; // a single zero piece is not compressed
    for (int i = 0; i < 8; ) {
      if (address[i] != 0) {
        i++;
        continue;
      }
      int start = i;
      while (i < 8 && address[i] == 0) {
        i++;
      }
      if (i - start > bestLength) {
        bestStart = start;
        bestLength = i - start;
      }
    }
    StringBuilder out = new StringBuilder(39);
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        out.append(i == 0 ? "::" : ":");
        i += bestLength - 1;
        continue;
      }
      out.append(Integer.toHexString(address[i]));
      if (i != 7) {
        out.append(':');
      }
    }
    return out.toString();
  }
}
