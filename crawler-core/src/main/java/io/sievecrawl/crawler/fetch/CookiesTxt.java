package io.sievecrawl.crawler.fetch;

import java.util.ArrayList;
import java.util.List;
import okhttp3.Cookie;

/**
 * Cookies in the Netscape {@code cookies.txt} format that curl and wget read and write: one cookie per line, seven
 * tab-separated fields (domain, whether subdomains get it, path, secure, expiry in epoch seconds with 0 for a session
 * cookie, name, value), a {@code #HttpOnly_} prefix on the domain of an HttpOnly cookie, {@code #} comments.
 */
public final class CookiesTxt {
  private static final String HTTP_ONLY = "#HttpOnly_";
  /** The expiry OkHttp gives a session cookie (one without Max-Age or Expires). */
  private static final long SESSION = 253_402_300_799_999L;

  private CookiesTxt() {}

  /** The file's text for {@code cookies}; one that a field cannot hold (a tab or line break in it) is left out. */
  public static String write(List<Cookie> cookies) {
    StringBuilder text = new StringBuilder("# Netscape HTTP Cookie File\n");
    for (Cookie c : cookies) {
      String line = (c.httpOnly() ? HTTP_ONLY : "") + (c.hostOnly() ? "" : ".") + c.domain() + '\t'
          + (c.hostOnly() ? "FALSE" : "TRUE") + '\t' + c.path() + '\t' + (c.secure() ? "TRUE" : "FALSE") + '\t'
          + (c.persistent() ? Math.max(1, c.expiresAt() / 1000) : 0) + '\t' + c.name() + '\t' + c.value();
      if (line.chars().filter(ch -> ch == '\t').count() == 6 && line.indexOf('\n') < 0 && line.indexOf('\r') < 0) {
        text.append(line).append('\n');
      }
    }
    return text.toString();
  }

  /** The cookies in {@code text}; a line that is no cookie is skipped. */
  public static List<Cookie> read(String text) {
    List<Cookie> cookies = new ArrayList<>();
    for (String line : text.split("\r?\n")) {
      boolean httpOnly = line.startsWith(HTTP_ONLY);
      if (httpOnly) {
        line = line.substring(HTTP_ONLY.length());
      } else if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Cookie cookie = parse(line.split("\t", -1), httpOnly);
      if (cookie != null) {
        cookies.add(cookie);
      }
    }
    return cookies;
  }

  private static Cookie parse(String[] f, boolean httpOnly) {
    if (f.length != 7 || f[5].isEmpty()) {
      return null;
    }
    try {
      String domain = f[0].startsWith(".") ? f[0].substring(1) : f[0];
      Cookie.Builder b = new Cookie.Builder().name(f[5]).value(f[6]).path(f[2].startsWith("/") ? f[2] : "/");
      b = "TRUE".equalsIgnoreCase(f[1]) ? b.domain(domain) : b.hostOnlyDomain(domain);
      long expires = Long.parseLong(f[4]);
      if (expires > 0) {
        b.expiresAt(Math.min(expires, SESSION / 1000) * 1000);
      }
      if ("TRUE".equalsIgnoreCase(f[3])) {
        b.secure();
      }
      if (httpOnly) {
        b.httpOnly();
      }
      return b.build();
    } catch (IllegalArgumentException e) { // a number or a domain OkHttp cannot take
      return null;
    }
  }
}
