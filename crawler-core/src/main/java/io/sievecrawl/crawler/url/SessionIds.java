package io.sievecrawl.crawler.url;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Session ids in a URL ({@code ;jsessionid=...}, {@code PHPSESSID=...}): the parameters platforms put a visitor's
 * session in, which give one page as many URLs as it has visitors (traps.strip-session-ids). Only the session
 * parameter is removed, nothing else of the parameter list it stands in.
 *
 * <p>{@link #mayBeIn} and {@link #mayBeInQuery} are quick checks for the fast paths of a page's links: where they
 * say no, removing session ids changes nothing, so a canonical page URL is its links' base as it is and a plain
 * reference is merged into it directly; where they say yes, the normalizer's general path decides.
 */
final class SessionIds {
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

  private SessionIds() {}

  /** Whether a session id may be in {@code url}: a path parameter, or a query parameter of a session id's name. */
  static boolean mayBeIn(Url url) {
    String s = url.toString();
    int query = s.indexOf('?');
    return s.indexOf(';') >= 0 || (query >= 0 && mayBeInQuery(s, query + 1, s.length()));
  }

  /** {@code path} without its session-id path parameters. */
  static String removeFromPath(String path) {
    Matcher m = PATH_SESSION.matcher(path);
    StringBuilder kept = new StringBuilder(path.length());
    while (m.find()) {
      m.appendReplacement(kept, isSessionId(m.group(1), m.group(2)) ? "" : Matcher.quoteReplacement(m.group()));
    }
    return m.appendTail(kept).toString();
  }

  /** {@code query} without its session-id parameters, the others in their order. */
  static String removeFromQuery(String query) {
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
   * Whether a parameter of the query {@code s[from, to)} may be a session id that {@link #removeFromQuery}
   * removes: its name is one a session id has (its value is not looked at).
   */
  static boolean mayBeInQuery(String s, int from, int to) {
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
}
