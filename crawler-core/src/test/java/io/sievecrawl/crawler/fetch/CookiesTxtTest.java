package io.sievecrawl.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import okhttp3.Cookie;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

class CookiesTxtTest {
  private static final HttpUrl SHOP = HttpUrl.get("https://www.example.com/shop/cart");

  @Test
  void everyKindOfCookieComesBackAsItWasWritten() {
    List<Cookie> cookies = List.of(
        Cookie.parse(SHOP, "session=abc; HttpOnly"),
        Cookie.parse(SHOP, "lang=en; Domain=example.com; Path=/; Secure"),
        Cookie.parse(SHOP, "seen=1; Path=/shop; Expires=Wed, 01 Jan 2031 00:00:00 GMT"),
        Cookie.parse(SHOP, "empty="));
    String text = CookiesTxt.write(cookies);
    assertEquals("""
        # Netscape HTTP Cookie File
        #HttpOnly_www.example.com\tFALSE\t/shop\tFALSE\t0\tsession\tabc
        .example.com\tTRUE\t/\tTRUE\t0\tlang\ten
        www.example.com\tFALSE\t/shop\tFALSE\t1924992000\tseen\t1
        www.example.com\tFALSE\t/shop\tFALSE\t0\tempty\t
        """, text);
    assertEquals(cookies, CookiesTxt.read(text));
  }

  @Test
  void aFileCurlWroteIsRead() {
    List<Cookie> read = CookiesTxt.read("""
        # Netscape HTTP Cookie File
        # https://curl.se/docs/http-cookies.html

        .example.org\tTRUE\t/\tFALSE\t1924992000\tid\t42\r
        #HttpOnly_example.org\tFALSE\t/app\tTRUE\t0\tsid\txyz
        """);
    assertEquals(2, read.size());
    assertEquals("id=42; expires=Wed, 01 Jan 2031 00:00:00 GMT; domain=example.org; path=/", read.get(0).toString());
    assertEquals("sid=xyz; path=/app; secure; httponly", read.get(1).toString());
  }

  @Test
  void linesThatAreNoCookieAreSkippedAndACookieNoLineCanHoldIsNotWritten() {
    List<Cookie> read = CookiesTxt.read("""
        example.org\tFALSE\t/\tFALSE\tsoon\tid\t1
        example.org\tFALSE\t/\tFALSE\t0\tid
        example.org\tFALSE\t/\tFALSE\t0\t\tnameless
        exa mple.org\tFALSE\t/\tFALSE\t0\tid\t1
        example.org\tFALSE\t/\tFALSE\t0\tok\t1
        """);
    assertEquals(List.of("ok=1; path=/"), read.stream().map(Cookie::toString).toList());
    Cookie tabbed = new Cookie.Builder().name("a").value("x\ty").hostOnlyDomain("example.org").build();
    assertEquals("# Netscape HTTP Cookie File\n", CookiesTxt.write(List.of(tabbed)));
  }
}
