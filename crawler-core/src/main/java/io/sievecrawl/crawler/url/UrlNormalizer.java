package io.sievecrawl.crawler.url;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.HttpUrl;

/**
 * Turns a URL, or a reference resolved against a base, into the one canonical form under which the crawler sieves
 * and fetches it.
 *
 * <p>Resolution follows RFC 3986 section 5.2, leniently as browsers do (a reference {@code http:g} against an http
 * base is relative; backslashes count as slashes; tabs and newlines are removed; surrounding spaces trimmed).
 * Normalization follows section 6.2: scheme and host lowercased, a trailing dot of the host and the default port
 * dropped, user info dropped, the fragment dropped, dot segments resolved,
 * percent-encoding normalized (unreserved characters decoded, other escapes in upper case, characters that may
 * not appear raw encoded as UTF-8, stray {@code %} escaped), an empty path made {@code /} and an empty query
 * removed. Optionally session ids ({@code ;jsessionid=...}, {@code PHPSESSID=...}) are removed, and nothing else
 * of the parameter list they stand in. Only http and https URLs are accepted, up to a maximum length.
 *
 * <p>Hosts are read as browsers read them (the WHATWG URL standard): international names by UTS #46
 * non-transitional processing into punycode ({@code faß.de} is {@code xn--fa-hia.de}, not {@code fass.de}), through
 * OkHttp's implementation rather than {@code java.net.IDN}, which is IDNA 2003 (OkHttp does not yet apply the
 * CheckJoiners and CheckBidi rules, so a few names browsers refuse are accepted); IPv4 addresses in every form
 * browsers accept ({@code 127.1}, {@code 0x7f.1}, {@code 2130706433}) as a dotted quad, and a host whose last label
 * is a number but no IPv4 address refused; IPv6 addresses, IPv4-mapped ones included, in the RFC 5952 form
 * ({@link IpAddresses}).
 *
 * <p>crawler-commons' {@code BasicURLNormalizer} 1.6 was the first choice, but it garbles the query of a URL
 * whose path holds an encoded unreserved character ({@code /%7Euser?b=2} becomes {@code /~user?b?2}) and
 * reorders query parameters; this class does the same normalizations and keeps parameter order.
 */
public final class UrlNormalizer {
  private static final Pattern CONTROL_WHITESPACE = Pattern.compile("[\t\n\r]");
  private static final List<String> SESSION_PARAM_NAMES = List.of(
      "jsessionid", "phpsessid", "sid", "sessionid", "session_id", "aspsessionid", "cfid", "cftoken", "zenid",
      "oscsid", "sess_id");
  private static final Set<String> SESSION_PARAMS = Set.copyOf(SESSION_PARAM_NAMES);
  /** A session-id path parameter, up to the next parameter or segment: {@code /x;jsessionid=1;type=a} keeps {@code ;type=a}. */
  private static final Pattern PATH_SESSION = Pattern.compile("(?i);(jsessionid|phpsessid|sid|sessionid)=([^/;]*)");
  /**
   * A value that looks minted rather than chosen: letters and digits mixed, as 16 or more hex digits (a hash, a UUID)
   * or 20 or more of any letters and digits.
   */
  private static final Pattern SESSION_TOKEN = Pattern.compile("(?=.*[0-9])(?=.*[A-Za-z])"
      + "(?:(?=(?:-?[0-9A-Fa-f]){16})[0-9A-Fa-f]+(?:-[0-9A-Fa-f]+)*|[0-9A-Za-z]{20,})");

  private static final String SUB_DELIMS = "!$&'()*+,;=";
  private static final String PATH_CHARS = SUB_DELIMS + ":@/";
  private static final String QUERY_CHARS = PATH_CHARS + "?";

  private final int maxLength;
  private final boolean stripSessionIds;

  /**
   * @param maxLength the longest normalized URL accepted
   * @param stripSessionIds whether to remove session-id path parameters and query parameters
   */
  public UrlNormalizer(int maxLength, boolean stripSessionIds) {
    this.maxLength = maxLength;
    this.stripSessionIds = stripSessionIds;
  }

  int maxLength() {
    return maxLength;
  }

  boolean stripsSessionIds() {
    return stripSessionIds;
  }

  /** A normalizer like this one that keeps session ids (this one, when it keeps them already). */
  public UrlNormalizer keepingSessionIds() {
    return stripSessionIds ? new UrlNormalizer(maxLength, false) : this;
  }

  /** The canonical form of an absolute URL. */
  public String normalize(String url) throws InvalidUrlException {
    return toUrl(url).toString();
  }

  /** The canonical form of {@code reference} resolved against the absolute URL {@code base}. */
  public String resolve(String base, String reference) throws InvalidUrlException {
    return resolveToUrl(base, reference).toString();
  }

  /** The canonical {@link Url} of an absolute URL. */
  public Url toUrl(String url) throws InvalidUrlException {
    Parts parts = parse(url);
    if (parts.scheme == null) {
      throw new InvalidUrlException("not an absolute URL (no scheme)");
    }
    return canonical(parts, maxLength);
  }

  /** {@link #toUrl}, or {@code null} if the URL is invalid. */
  public Url toUrlOrNull(String url) {
    try {
      return toUrl(url);
    } catch (InvalidUrlException e) {
      return null;
    }
  }

  /**
   * A resolver of references against {@code base} (an absolute URL, canonical or not, such as a page's URL or its
   * {@code <base href>}) that resolves each distinct reference once: for the links of one page.
   */
  public ReferenceResolver resolverFor(String base) {
    return resolverFor(base, StandardCharsets.UTF_8);
  }

  /**
   * As {@link #resolverFor(String)}, for the links of a document in {@code encoding}: a non-ASCII character in a
   * link's query is percent-encoded in it, as browsers do (the WHATWG URL standard), so that a server that reads
   * its queries in the encoding of its pages gets what a browser would send; a character it cannot hold goes as
   * {@code &#NNNN;}.
   */
  public ReferenceResolver resolverFor(String base, Charset encoding) {
    return new ReferenceResolver(this, base, queryEncoding(encoding));
  }

  /** The encoding URL queries take in a document: its own, but UTF-8 for UTF-16 or one that cannot encode. */
  private static Charset queryEncoding(Charset documentEncoding) {
    String name = documentEncoding.name();
    return name.startsWith("UTF-16") || !documentEncoding.canEncode() ? StandardCharsets.UTF_8 : documentEncoding;
  }

  /** The canonical {@link Url} of {@code reference} resolved against the absolute URL {@code base}. */
  Url resolveToUrl(String base, String reference) throws InvalidUrlException {
    return resolveToUrl(base, reference, StandardCharsets.UTF_8);
  }

  /** As {@link #resolveToUrl(String, String)}, a non-ASCII query encoded in {@code queryEncoding}. */
  Url resolveToUrl(String base, String reference, Charset queryEncoding) throws InvalidUrlException {
    Parts b = parse(base);
    if (b.scheme == null) {
      throw new InvalidUrlException("base is not an absolute URL");
    }
    return canonical(resolve(b, parse(reference)), maxLength, queryEncoding);
  }

  /** {@code base} as a {@link Url} whatever its length (a long base may still have short links), or null. */
  Url toBaseUrlOrNull(String base) {
    try {
      Parts parts = parse(base);
      return parts.scheme == null ? null : canonical(parts, Integer.MAX_VALUE);
    } catch (InvalidUrlException e) {
      return null;
    }
  }

  /**
   * The {@link Url} of a string this class produced, such as one read back from a frontier, split into its parts
   * without normalizing it again. The shape is checked (scheme, a host of the characters a canonical host has, a
   * port only where it is not the scheme's default, a path, no empty query, no fragment), not every rule.
   *
   * @throws IllegalArgumentException if it does not have the shape of a canonical http(s) URL
   */
  public static Url parseCanonical(String canonicalUrl) {
    String scheme = canonicalUrl.startsWith("https://") ? Url.HTTPS
        : canonicalUrl.startsWith("http://") ? Url.HTTP : null;
    if (scheme == null || canonicalUrl.indexOf('#') >= 0 || canonicalUrl.endsWith("?")) {
      throw notCanonical(canonicalUrl);
    }
    int hostStart = scheme.length() + 3;
    int pathStart = canonicalUrl.indexOf('/', hostStart);
    if (pathStart < 0) {
      throw notCanonical(canonicalUrl);
    }
    boolean ipv6 = canonicalUrl.charAt(hostStart) == '[';
    int hostEnd = ipv6 ? canonicalUrl.indexOf(']', hostStart) + 1 : endOfHost(canonicalUrl, hostStart, pathStart);
    if (hostEnd <= hostStart + (ipv6 ? 2 : 0) || hostEnd > pathStart
        || !hasHostCharacters(canonicalUrl, hostStart + (ipv6 ? 1 : 0), hostEnd - (ipv6 ? 1 : 0), ipv6)) {
      throw notCanonical(canonicalUrl);
    }
    int port = defaultPort(scheme);
    if (hostEnd < pathStart) {
      boolean digitsFollow = canonicalUrl.charAt(hostEnd) == ':' && hostEnd + 1 < pathStart
          && canonicalUrl.charAt(hostEnd + 1) != '0'; // a canonical port has no leading zero
      port = digitsFollow ? parsePort(canonicalUrl, hostEnd + 1, pathStart) : -1;
      if (port < 0 || port == defaultPort(scheme)) {
        throw notCanonical(canonicalUrl);
      }
    }
    return new Url(canonicalUrl, scheme, canonicalUrl.substring(hostStart, hostEnd), port,
        canonicalUrl.substring(0, pathStart), canonicalUrl.indexOf('?', pathStart));
  }

  /** Where a host that is no IPv6 literal ends: at a ':' before {@code pathStart}, or at {@code pathStart}. */
  private static int endOfHost(String s, int from, int pathStart) {
    int colon = s.indexOf(':', from);
    return colon < 0 || colon > pathStart ? pathStart : colon;
  }

  /** Lower-case letters, digits, '.', '-' and '_' (a name or IPv4 address); hex digits, ':' and '.' for IPv6. */
  private static boolean hasHostCharacters(String s, int from, int to, boolean ipv6) {
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      boolean ok = ipv6 ? (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == ':' || c == '.'
          : (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** The port in {@code s[from, to)}, or -1 if it is not 1 to 65535 in at most five digits. */
  static int parsePort(String s, int from, int to) {
    if (to - from > 5) {
      return -1;
    }
    int port = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      port = port * 10 + (c - '0');
    }
    return port >= 1 && port <= 65535 ? port : -1;
  }

  private static IllegalArgumentException notCanonical(String url) {
    return new IllegalArgumentException("not a canonical http(s) URL: '" + url + "'");
  }

  /** {@link #normalize}, or {@code null} if the URL is invalid. */
  public String normalizeOrNull(String url) {
    try {
      return normalize(url);
    } catch (InvalidUrlException e) {
      return null;
    }
  }

  /** {@link #resolve}, or {@code null} if the result is invalid. */
  public String resolveOrNull(String base, String reference) {
    try {
      return resolve(base, reference);
    } catch (InvalidUrlException e) {
      return null;
    }
  }

  private record Parts(String scheme, String authority, String path, String query) {}

  /** Splits a URL into scheme, authority, path and query as RFC 3986 appendix B does; the fragment is dropped. */
  private static Parts parse(String raw) throws InvalidUrlException {
    String s = raw.strip();
    if (s.indexOf('\t') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
      s = CONTROL_WHITESPACE.matcher(s).replaceAll("");
    }
    int length = s.length();
    int pos = scan(s, 0, ":/?#");
    String scheme = null;
    if (pos > 0 && pos < length && s.charAt(pos) == ':' && isScheme(s.substring(0, pos))) {
      scheme = s.substring(0, pos);
      pos++;
    } else {
      pos = 0; // no scheme: "2024:report.html" is a relative path, as browsers read it (WHATWG URL)
    }
    String authority = null;
    if (s.startsWith("//", pos)) {
      int end = scan(s, pos + 2, "/?#");
      authority = s.substring(pos + 2, end);
      pos = end;
    }
    int pathEnd = scan(s, pos, "?#");
    String path = s.substring(pos, pathEnd);
    String query = null;
    if (pathEnd < length && s.charAt(pathEnd) == '?') {
      int fragment = s.indexOf('#', pathEnd + 1);
      query = s.substring(pathEnd + 1, fragment < 0 ? length : fragment);
    }
    if ((scheme == null || isSpecial(scheme))
        && (path.indexOf('\\') >= 0 || (authority != null && authority.indexOf('\\') >= 0))) {
      // Browsers read a backslash as a slash in http(s) URLs: http:\\host\path.
      int queryStart = s.indexOf('?');
      String head = s.substring(0, queryStart >= 0 ? queryStart : length).replace('\\', '/');
      return parse(head + s.substring(head.length()));
    }
    return new Parts(scheme == null ? null : scheme.toLowerCase(Locale.ROOT), authority, path, query);
  }

  /** The index of the first character of {@code s} from {@code from} that is one of {@code stops}, or its length. */
  private static int scan(String s, int from, String stops) {
    int i = from;
    while (i < s.length() && stops.indexOf(s.charAt(i)) < 0) {
      i++;
    }
    return i;
  }

  /** RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ). */
  private static boolean isScheme(String scheme) {
    for (int i = 0; i < scheme.length(); i++) {
      char c = scheme.charAt(i);
      boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      if (!(letter || (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isSpecial(String scheme) {
    return scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https");
  }

  /** RFC 3986 section 5.2.2, with the browsers' leniency for {@code http:g}. */
  private static Parts resolve(Parts base, Parts ref) {
    if (ref.scheme != null && !(ref.scheme.equals(base.scheme) && ref.authority == null && isSpecial(ref.scheme))) {
      return new Parts(ref.scheme, ref.authority, removeDotSegments(ref.path), ref.query);
    }
    if (ref.authority != null) {
      return new Parts(base.scheme, ref.authority, removeDotSegments(ref.path), ref.query);
    }
    if (ref.path.isEmpty()) {
      return new Parts(base.scheme, base.authority, base.path, ref.query != null ? ref.query : base.query);
    }
    String path = ref.path.startsWith("/") ? ref.path : merge(base, ref.path);
    return new Parts(base.scheme, base.authority, removeDotSegments(path), ref.query);
  }

  private static String merge(Parts base, String refPath) {
    if (base.authority != null && base.path.isEmpty()) {
      return "/" + refPath;
    }
    int slash = base.path.lastIndexOf('/');
    return base.path.substring(0, slash + 1) + refPath;
  }

  /** RFC 3986 section 5.2.4. */
  static String removeDotSegments(String path) {
    if (!hasDotSegment(path)) {
      return path;
    }
    char[] out = new char[path.length()];
    return new String(out, 0, removeDotSegments(path, 0, path.length(), out, 0));
  }

  /**
   * RFC 3986 section 5.2.4 on {@code path[from, to)}: reads the input once and writes the output into {@code out}
   * from {@code o} (it is never longer than the input) instead of shifting buffers; returns the end of the output.
   */
  static int removeDotSegments(CharSequence path, int from, int to, char[] out, int o) {
    int outStart = o;
    int i = from;
    while (i < to) {
      int rest = to - i;
      char c0 = path.charAt(i);
      char c1 = rest > 1 ? path.charAt(i + 1) : 0;
      char c2 = rest > 2 ? path.charAt(i + 2) : 0;
      char c3 = rest > 3 ? path.charAt(i + 3) : 0;
      if (c0 == '.' && c1 == '.' && c2 == '/') { // A: "../"
        i += 3;
      } else if (c0 == '.' && c1 == '/') { // A: "./"
        i += 2;
      } else if (c0 == '/' && c1 == '.' && c2 == '/') { // B: "/./" becomes "/"
        i += 2;
      } else if (c0 == '/' && c1 == '.' && rest == 2) { // B: a final "/." becomes "/"
        out[o++] = '/';
        i = to;
      } else if (c0 == '/' && c1 == '.' && c2 == '.' && (rest == 3 || c3 == '/')) { // C: "/../" or a final "/.."
        o = lastSlash(out, outStart, o);
        if (rest == 3) {
          out[o++] = '/';
          i = to;
        } else {
          i += 3;
        }
      } else if ((c0 == '.' && rest == 1) || (c0 == '.' && c1 == '.' && rest == 2)) { // D: "." or ".." alone
        i = to;
      } else { // E: the first segment, with its leading slash, moves to the output
        do {
          out[o++] = path.charAt(i++);
        } while (i < to && path.charAt(i) != '/');
      }
    }
    return o;
  }

  /** Where the output's last segment starts (its slash), or {@code start}: RFC 3986's "remove the last segment". */
  private static int lastSlash(char[] out, int start, int end) {
    for (int i = end - 1; i >= start; i--) {
      if (out[i] == '/') {
        return i;
      }
    }
    return start;
  }

  private static boolean hasDotSegment(String path) {
    int n = path.length();
    for (int i = path.indexOf('.'); i >= 0; i = path.indexOf('.', i + 1)) {
      boolean startsSegment = i == 0 || path.charAt(i - 1) == '/';
      if (startsSegment) {
        int after = i + 1 < n && path.charAt(i + 1) == '.' ? i + 2 : i + 1;
        if (after == n || path.charAt(after) == '/') {
          return true;
        }
      }
    }
    return false;
  }

  private Url canonical(Parts parts, int maxLength) throws InvalidUrlException {
    return canonical(parts, maxLength, StandardCharsets.UTF_8);
  }

  private Url canonical(Parts parts, int maxLength, Charset queryEncoding) throws InvalidUrlException {
    String scheme = parts.scheme;
    if (!isSpecial(scheme)) {
      throw new InvalidUrlException("unsupported scheme '" + scheme + "'");
    }
    if (parts.authority == null || parts.authority.isEmpty()) {
      throw new InvalidUrlException("no host");
    }
    scheme = scheme.equals(Url.HTTP) ? Url.HTTP : Url.HTTPS;
    StringBuilder out = new StringBuilder(64);
    out.append(scheme).append("://");
    int hostStart = out.length();
    int port = appendHost(scheme, parts.authority, out);
    int hostEnd = out.length();
    if (port != defaultPort(scheme)) {
      out.append(':').append(port);
    }
    int originEnd = out.length();

    String path = normalizeEscapes(parts.path, PATH_CHARS);
    if (stripSessionIds && path.indexOf(';') >= 0) {
      path = withoutPathSessionIds(path);
    }
    path = removeDotSegments(path);
    out.append(path.isEmpty() ? "/" : path);

    int queryMark = -1;
    if (parts.query != null) {
      String query = normalizeEscapes(parts.query, QUERY_CHARS, queryEncoding);
      if (stripSessionIds) {
        query = withoutSessionParams(query);
      }
      if (!query.isEmpty()) {
        queryMark = out.length();
        out.append('?').append(query);
      }
    }
    if (out.length() > maxLength) {
      throw InvalidUrlException.tooLong(maxLength);
    }
    String url = out.toString();
    return new Url(url, scheme, url.substring(hostStart, hostEnd), port, url.substring(0, originEnd), queryMark);
  }

  /** Appends the canonical host and returns the port, the scheme's default if the authority names none. */
  private static int appendHost(String scheme, String authority, StringBuilder out) throws InvalidUrlException {
    String hostPort = authority.substring(authority.lastIndexOf('@') + 1); // user info is dropped
    String host;
    String port = "";
    if (hostPort.startsWith("[")) {
      int close = hostPort.indexOf(']');
      if (close < 0) {
        throw new InvalidUrlException("unclosed IPv6 address");
      }
      String address = IpAddresses.ipv6(hostPort.substring(1, close));
      if (address == null) {
        throw new InvalidUrlException("invalid IPv6 address " + hostPort.substring(0, close + 1));
      }
      host = "[" + address + "]";
      String rest = hostPort.substring(close + 1);
      if (!rest.isEmpty()) {
        if (!rest.startsWith(":")) {
          throw new InvalidUrlException("invalid authority '" + authority + "'");
        }
        port = rest.substring(1);
      }
    } else {
      int colon = hostPort.lastIndexOf(':');
      host = colon < 0 ? hostPort : hostPort.substring(0, colon);
      port = colon < 0 ? "" : hostPort.substring(colon + 1);
      host = asciiHost(host);
    }
    out.append(host);
    if (port.isEmpty()) {
      return defaultPort(scheme);
    }
    if (!port.chars().allMatch(c -> c >= '0' && c <= '9') || port.length() > 5
        || Integer.parseInt(port) == 0 || Integer.parseInt(port) > 65535) {
      throw new InvalidUrlException("invalid port '" + port + "'");
    }
    return Integer.parseInt(port);
  }

  static int defaultPort(String scheme) {
    return scheme.equals(Url.HTTPS) ? 443 : 80;
  }

  /**
   * The canonical form of a host that is not an IPv6 literal: percent-decoded; international names mapped and
   * converted to punycode by UTS #46 non-transitional processing (OkHttp's implementation, as browsers do:
   * {@code faß.de} is {@code xn--fa-hia.de}, a zero-width joiner is kept); then, if its last label is a number, an
   * IPv4 address in dotted-decimal, otherwise a lower-case host name.
   */
  private static String asciiHost(String raw) throws InvalidUrlException {
    String host = percentDecode(raw);
    while (host.endsWith(".")) {
      host = host.substring(0, host.length() - 1);
    }
    if (host.isEmpty()) {
      throw new InvalidUrlException("no host");
    }
    if (needsIdna(host)) {
      host = idnaToAscii(host, raw);
    } else {
      host = host.toLowerCase(Locale.ROOT);
    }
    if (IpAddresses.endsInANumber(host)) {
      String address = IpAddresses.ipv4(host);
      if (address == null) {
        throw new InvalidUrlException("invalid IPv4 address '" + raw + "'");
      }
      return address;
    }
    if (!isHostName(host)) {
      throw new InvalidUrlException("invalid host '" + raw + "'");
    }
    return host;
  }

  /** Whether a host has non-ASCII characters or a punycode label: those go through UTS #46 processing. */
  private static boolean needsIdna(String host) {
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      if (c >= 0x80 || ((c == 'x' || c == 'X') && (i == 0 || host.charAt(i - 1) == '.')
          && host.regionMatches(true, i, "xn--", 0, 4))) {
        return true;
      }
    }
    return false;
  }

  private static String idnaToAscii(String host, String raw) throws InvalidUrlException {
    if (host.indexOf('%') >= 0 || host.indexOf(':') >= 0) { // forbidden; OkHttp would decode or read IPv6
      throw new InvalidUrlException("invalid host '" + raw + "'");
    }
    try {
      return new HttpUrl.Builder().scheme("http").host(host).build().host();
    } catch (IllegalArgumentException e) {
      throw new InvalidUrlException("invalid international host name '" + raw + "'");
    }
  }

  /**
   * At most 253 characters of dot-separated labels of a-z, 0-9, '_' and '-', each 1 to 63 characters long and
   * neither starting nor ending with '-'.
   */
  private static boolean isHostName(String host) {
    if (host.length() > 253) {
      return false;
    }
    int labelStart = 0;
    for (int i = 0; i <= host.length(); i++) {
      char c = i < host.length() ? host.charAt(i) : '.';
      if (c == '.') {
        if (i == labelStart || i - labelStart > 63 || host.charAt(labelStart) == '-' || host.charAt(i - 1) == '-') {
          return false;
        }
        labelStart = i + 1;
      } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) {
        return false;
      }
    }
    return true;
  }

  /** Decodes every %XX escape as UTF-8 (for host names). */
  private static String percentDecode(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    byte[] bytes = new byte[s.length() * 3];
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%' && i + 2 < s.length() && isHex(s.charAt(i + 1)) && isHex(s.charAt(i + 2))) {
        bytes[n++] = (byte) Integer.parseInt(s.substring(i + 1, i + 3), 16);
        i += 2;
      } else {
        for (byte b : String.valueOf(c).getBytes(StandardCharsets.UTF_8)) {
          bytes[n++] = b;
        }
      }
    }
    return new String(bytes, 0, n, StandardCharsets.UTF_8);
  }

  /**
   * Decodes escapes of unreserved characters, upper-cases the hex of the others, escapes a {@code %} that starts
   * no escape, and UTF-8-encodes every character that may not appear raw (outside unreserved and {@code allowed}).
   */
  static String normalizeEscapes(String s, String allowed) {
    return normalizeEscapes(s, allowed, StandardCharsets.UTF_8);
  }

  /** As {@link #normalizeEscapes(String, String)}, a non-ASCII character encoded in {@code encoding}. */
  static String normalizeEscapes(String s, String allowed, Charset encoding) {
    StringBuilder out = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%') {
        if (i + 2 < s.length() && isHex(s.charAt(i + 1)) && isHex(s.charAt(i + 2))) {
          int value = Integer.parseInt(s.substring(i + 1, i + 3), 16);
          if (isUnreserved(value)) {
            out.append((char) value);
          } else {
            out.append('%').append(Character.toUpperCase(s.charAt(i + 1))).append(Character.toUpperCase(s.charAt(i + 2)));
          }
          i += 2;
        } else {
          out.append("%25");
        }
      } else if (c < 0x80 && (isUnreserved(c) || allowed.indexOf(c) >= 0)) {
        out.append(c);
      } else {
        int end = Character.isHighSurrogate(c) && i + 1 < s.length() ? i + 2 : i + 1;
        appendEncoded(out, s.substring(i, end), c < 0x80 ? StandardCharsets.UTF_8 : encoding);
        i = end - 1;
      }
    }
    return out.toString();
  }

  /**
   * Appends one character (or surrogate pair) percent-encoded in {@code encoding}; one it cannot hold goes as the
   * HTML character reference {@code &#NNNN;}, its {@code &}, {@code #} and {@code ;} encoded, as a browser sends it.
   */
  private static void appendEncoded(StringBuilder out, String character, Charset encoding) {
    if (encoding != StandardCharsets.UTF_8 && !encoding.newEncoder().canEncode(character)) {
      out.append("%26%23").append(character.codePointAt(0)).append("%3B");
      return;
    }
    for (byte b : character.getBytes(encoding)) {
      out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)))
          .append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
    }
  }

  private static String withoutPathSessionIds(String path) {
    Matcher m = PATH_SESSION.matcher(path);
    StringBuilder kept = new StringBuilder(path.length());
    while (m.find()) {
      m.appendReplacement(kept, isSessionId(m.group(1), m.group(2)) ? "" : Matcher.quoteReplacement(m.group()));
    }
    return m.appendTail(kept).toString();
  }

  private static String withoutSessionParams(String query) {
    if (query.isEmpty()) {
      return query;
    }
    List<String> kept = new ArrayList<>();
    for (String param : query.split("&", -1)) {
      int eq = param.indexOf('=');
      String name = eq < 0 ? param : param.substring(0, eq);
      if (!isSessionId(name, eq < 0 ? "" : param.substring(eq + 1))) {
        kept.add(param);
      }
    }
    return String.join("&", kept);
  }

  /**
   * Whether a parameter is a session id: one of the names platforms give their session ids ({@code jsessionid},
   * {@code PHPSESSID}, ...). {@code sid} only with a value that looks minted ({@link #SESSION_TOKEN}): many sites
   * number their stories or items with it ({@code article.php?sid=42}).
   */
  private static boolean isSessionId(String name, String value) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.equals("sid")) {
      return SESSION_TOKEN.matcher(value).matches();
    }
    return SESSION_PARAMS.contains(lower) || lower.startsWith("aspsessionid");
  }

  /**
   * Whether a parameter of the query {@code s[from, to)} may be a session id that {@link #withoutSessionParams}
   * removes: its name is one a session id has (its value is not looked at).
   */
  static boolean hasSessionParam(String s, int from, int to) {
    int start = from;
    while (start <= to) {
      int amp = s.indexOf('&', start);
      int end = amp < 0 || amp > to ? to : amp;
      int eq = s.indexOf('=', start);
      int nameEnd = eq < 0 || eq > end ? end : eq;
      if (isSessionParam(s, start, nameEnd)) {
        return true;
      }
      start = end + 1;
    }
    return false;
  }

  private static boolean isSessionParam(String s, int from, int to) {
    int length = to - from;
    if (length >= 12 && s.regionMatches(true, from, "aspsessionid", 0, 12)) {
      return true;
    }
    for (String name : SESSION_PARAM_NAMES) {
      if (name.length() == length && s.regionMatches(true, from, name, 0, length)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isUnreserved(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || c == '-' || c == '.' || c == '_' || c == '~';
  }

  private static boolean isHex(char c) {
    return Character.digit(c, 16) >= 0;
  }
}
