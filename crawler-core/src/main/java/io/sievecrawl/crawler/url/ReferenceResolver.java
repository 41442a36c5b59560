package io.sievecrawl.crawler.url;

import io.sievecrawl.crawler.encoding.WebEncoding;
import java.util.HashMap;
import java.util.Map;

/**
 * Resolves the references of one page (its links) against the page's base URL into canonical {@link Url}s,
 * each distinct reference once. Made by {@link UrlNormalizer#resolverFor}; not thread-safe: one per page.
 */
public final class ReferenceResolver {
  /*
   * Most links are plain: relative paths such as "../../java/lang/String.html" or absolute http(s) URLs, made of
   * characters that need no escaping, with a lower-case host name. Those take a fast path that merges the
   * reference into the already canonical base and removes dot segments in one pass over a reused buffer: the
   * scheme, host and origin strings of a same-origin link are the base's own, so a link costs its URL string and
   * its Url. Anything else (escapes, non-ASCII, backslashes, spaces, upper-case, numeric or punycode hosts, user
   * info, other schemes, session ids) takes the normalizer's general path, which is the reference: the fast path
   * gives exactly its result or declines (ReferenceResolverTest checks this on tables and random references).
   */
  private static final Object INVALID = new Object();
  private static final Object TOO_LONG = new Object(); // invalid only for its length: a trap guard's refusal
  private static final boolean[] PLAIN = new boolean[128];

  static {
    String plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?";
    for (int i = 0; i < plain.length(); i++) {
      PLAIN[plain.charAt(i)] = true;
    }
  }

  private final UrlNormalizer normalizer;
  private UrlParser.Parts baseParts; // the base as the general path reads it; parsed when first needed
  private boolean baseParsed;
  private final WebEncoding queryEncoding; // of non-ASCII characters in a query: the document's encoding
  private final Url base; // null when the base is not a usable http(s) URL: the general path then decides
  /**
   * Whether the fast path may merge references into {@link #base}: not when the canonical base lost a session id,
   * because references resolve against the base as written ({@code ..;jsessionid=1} is no dot segment there).
   */
  private final boolean fastPath;
  private final String baseDirectory;
  private final Map<String, Object> resolved = new HashMap<>();
  private final StringBuilder merged = new StringBuilder(128);
  private char[] out = new char[256];

  /** A resolver against {@code baseParts}, the parts of a base as written, or null for no usable base. */
  ReferenceResolver(UrlNormalizer normalizer, UrlParser.Parts baseParts, WebEncoding queryEncoding) {
    this.normalizer = normalizer;
    this.baseParts = baseParts;
    this.baseParsed = true;
    this.queryEncoding = queryEncoding;
    this.base = normalizer.toBaseUrlOrNull(baseParts, queryEncoding);
    this.fastPath = base != null && !stripsSomethingFrom(baseParts);
    this.baseDirectory = base == null ? null : directoryOf(base);
  }

  /** A resolver against a canonical URL that normalizing again would not change (no session id to strip). */
  ReferenceResolver(UrlNormalizer normalizer, Url base, WebEncoding queryEncoding) {
    this.normalizer = normalizer;
    this.queryEncoding = queryEncoding;
    this.base = base;
    this.fastPath = true;
    this.baseDirectory = directoryOf(base);
  }

  private static String directoryOf(Url base) {
    String path = base.path();
    return path.substring(0, path.lastIndexOf('/') + 1);
  }

  /** The base URL in canonical form, or {@code null} if it is not an http(s) URL the crawler accepts. */
  public Url base() {
    return base;
  }

  /** Whether normalizing the base removes a session id from it. */
  private boolean stripsSomethingFrom(UrlParser.Parts parts) {
    if (!normalizer.stripsSessionIds()) {
      return false;
    }
    Url kept = normalizer.keepingSessionIds().toBaseUrlOrNull(parts, queryEncoding);
    return kept == null || !kept.equals(base);
  }

  /** The canonical URL of {@code reference} against the base, or {@code null} if it is not a crawlable URL. */
  public Url resolveOrNull(String reference) {
    Object known = resolved.get(reference);
    if (known == null) {
      Url url = fastPath ? resolvePlain(base, reference) : null;
      known = url;
      if (url == null) {
        try {
          known = normalizer.resolveToUrl(baseParts(), reference, queryEncoding);
        } catch (InvalidUrlException e) {
          known = e.isTooLong() ? TOO_LONG : INVALID;
        }
      }
      resolved.put(reference, known);
    }
    return known instanceof Url url ? url : null;
  }

  private UrlParser.Parts baseParts() {
    if (!baseParsed) {
      try {
        baseParts = UrlParser.parse(base.toString(), null);
      } catch (InvalidUrlException e) {
        throw new IllegalStateException("a canonical URL that does not parse: " + base, e);
      }
      baseParsed = true;
    }
    return baseParts;
  }

  /**
   * Whether {@code reference}, which {@link #resolveOrNull} gave {@code null} for, is a valid URL refused only for
   * being longer than {@code traps.max-url-length}.
   */
  public boolean wasTooLong(String reference) {
    return resolved.get(reference) == TOO_LONG;
  }

  /**
   * The fast path: the canonical URL of a plain reference against {@code base} (or of a plain absolute URL, if
   * {@code base} is null), or {@code null} to leave it to the general path.
   */
  Url resolvePlain(Url base, String ref) {
    int length = ref.length();
    int end = length; // the fragment is dropped
    for (int i = 0; i < length; i++) {
      char c = ref.charAt(i);
      if (c == '#') {
        end = i;
        break;
      }
      if (c >= 128 || !PLAIN[c]) {
        return null;
      }
    }
    if (end == 0) { // the base itself, which may be longer than the limit (it was lowered on resume)
      return base != null && base.toString().length() <= normalizer.maxLength() ? base : null;
    }
    String scheme = base == null ? null : base.scheme();
    String host = base == null ? null : base.host();
    int port = base == null ? -1 : base.port();
    String origin = base == null ? null : base.origin();
    int pos = 0;
    int stop = firstOf(ref, 0, end, ':', '/', '?');
    if (stop < end && ref.charAt(stop) == ':') {
      boolean http = stop == 4 && ref.regionMatches(true, 0, Url.HTTP, 0, 4);
      boolean https = stop == 5 && ref.regionMatches(true, 0, Url.HTTPS, 0, 5);
      if (!(http || https) || !ref.startsWith("//", stop + 1)) {
        return null; // another scheme, or "http:g", which browsers read as relative
      }
      scheme = http ? Url.HTTP : Url.HTTPS;
      pos = stop + 1;
    }
    if (scheme == null) {
      return null; // no base, and no scheme of its own
    }
    boolean hasAuthority = ref.startsWith("//", pos);
    if (hasAuthority) {
      int hostStart = pos + 2;
      int authorityEnd = firstOf(ref, hostStart, end, '/', '?', '/');
      int hostEnd = firstOf(ref, hostStart, authorityEnd, ':', ':', ':');
      if (!isPlainHost(ref, hostStart, hostEnd)) {
        return null;
      }
      int defaultPort = Url.defaultPort(scheme);
      int newPort = defaultPort;
      if (hostEnd + 1 < authorityEnd) {
        newPort = Url.parsePort(ref, hostEnd + 1, authorityEnd);
        if (newPort < 0) {
          return null;
        }
      }
      boolean sameOrigin = base != null && scheme == base.scheme() && newPort == port
          && hostEnd - hostStart == host.length() && ref.regionMatches(hostStart, host, 0, host.length());
      if (!sameOrigin) {
        host = ref.substring(hostStart, hostEnd);
        port = newPort;
        origin = scheme + "://" + host + (newPort == defaultPort ? "" : ":" + newPort);
      }
      pos = authorityEnd;
    } else if (base == null) {
      return null; // relative, and nothing to resolve it against
    }
    int queryMark = firstOf(ref, pos, end, '?', '?', '?');

    StringBuilder path = merged;
    path.setLength(0);
    if (hasAuthority || (pos < queryMark && ref.charAt(pos) == '/')) {
      path.append(ref, pos, queryMark);
    } else if (pos == queryMark) { // "?query": the base's path
      path.append(base.path());
    } else {
      path.append(baseDirectory).append(ref, pos, queryMark);
    }
    if (path.isEmpty()) {
      path.append('/');
    }
    boolean stripSessionIds = normalizer.stripsSessionIds();
    int queryLength = queryMark < end ? end - queryMark - 1 : 0;
    if (queryLength > 0 && ref.indexOf('\'', queryMark) >= 0 && ref.indexOf('\'', queryMark) < end) {
      return null; // a query's ' is encoded, as browsers do
    }
    if (stripSessionIds && (path.indexOf(";") >= 0
        || (queryLength > 0 && SessionIds.mayBeInQuery(ref, queryMark + 1, end)))) {
      return null;
    }

    int capacity = origin.length() + path.length() + 1 + queryLength;
    if (out.length < capacity) { // dot segments only shorten the path
      out = new char[Math.max(capacity, out.length * 2)];
    }
    origin.getChars(0, origin.length(), out, 0);
    int n = DotSegments.remove(path, 0, path.length(), out, origin.length());
    int urlQueryMark = -1;
    if (queryLength > 0) {
      urlQueryMark = n;
      out[n++] = '?';
      ref.getChars(queryMark + 1, end, out, n);
      n += queryLength;
    }
    if (n > normalizer.maxLength()) {
      return null; // the general path refuses it, saying why
    }
    return new Url(new String(out, 0, n), scheme, host, port, origin, urlQueryMark);
  }

  /** The index of the first of {@code a}, {@code b} or {@code c} (which may repeat) in {@code s[from, to)}, or {@code to}. */
  private static int firstOf(String s, int from, int to, char a, char b, char c) {
    for (int i = from; i < to; i++) {
      char ch = s.charAt(i);
      if (ch == a || ch == b || ch == c) {
        return i;
      }
    }
    return to;
  }

  /**
   * A host name already in canonical form: labels of a-z, 0-9, '-' and '_' as {@code UrlNormalizer} accepts them,
   * no trailing dot, no punycode label ({@code xn--}: only UTS #46 processing can say whether it is valid), and, if
   * the last label is a number, a plain dotted quad (other numeric forms are IPv4 addresses written differently, for
   * the general path).
   */
  private static boolean isPlainHost(String s, int from, int to) {
    if (to == from || to - from > 253) {
      return false;
    }
    int labelStart = from;
    boolean digitsOnly = true;
    int labels = 0;
    boolean dottedQuad = true;
    for (int i = from; i <= to; i++) {
      char c = i < to ? s.charAt(i) : '.';
      if (c == '.') {
        int label = i - labelStart;
        if (label == 0 || label > 63 || s.charAt(labelStart) == '-' || s.charAt(i - 1) == '-'
            || (label >= 4 && s.startsWith("xn--", labelStart))) {
          return false;
        }
        labels++;
        dottedQuad &= digitsOnly && label <= 3 && (label == 1 || s.charAt(labelStart) != '0')
            && Integer.parseInt(s, labelStart, i, 10) <= 255;
        if (i == to && (digitsOnly || (label > 1 && s.charAt(labelStart) == '0'
            && (s.charAt(labelStart + 1) == 'x' || s.charAt(labelStart + 1) == 'X')))) {
          return dottedQuad && labels == 4; // a number at the end: only a canonical IPv4 address is plain
        }
        labelStart = i + 1;
        digitsOnly = true;
      } else if ((c >= 'a' && c <= 'z') || c == '-' || c == '_') {
        digitsOnly = false;
      } else if (!(c >= '0' && c <= '9')) {
        return false;
      }
    }
    return true;
  }
}
