package io.sievecrawl.crawler.html;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The URLs a style sheet refers to, as browsers read them: url(), @import, image-set(), not strings or comments. */
class CssUrlsTest {

  private static List<String> urls(String css) {
    List<String> found = new ArrayList<>();
    CssUrls.scan(css, found, 100);
    return found;
  }

  @Test
  void urlFunctionsQuotedOrNot() {
    assertEquals(List.of("a.png", "b.png", "c d.png", "e.png"), urls("""
        body { background: url(a.png) } .x { background-image: URL( "b.png" ) }
        .y { background: url('c d.png') no-repeat; } .z{background:url(  e.png  )}"""));
  }

  @Test
  void importsWithAStringOrAUrlAndFontSources() {
    assertEquals(List.of("base.css", "print.css", "theme.css", "f.woff2", "f.woff"), urls("""
        @import "base.css";
        @import url(print.css) print;
        @IMPORT 'theme.css' screen and (min-width: 10em);
        @font-face { font-family: X; src: url(f.woff2) format("woff2"), url("f.woff") format("woff"); }"""));
  }

  @Test
  void imageSetStringsAreUrlsOtherStringsAndCommentsAreNot() {
    assertEquals(List.of("1x.png", "2x.png", "w.png", "real.png"), urls("""
        .a { background-image: image-set("1x.png" 1x, url(2x.png) 2x); }
        .b { background-image: -webkit-image-set('w.png' type("image/png") 1x); }
        .c::before { content: "url(not-a-url.png)"; }
        /* .d { background: url(commented.png) } */
        .e { background: url(real.png) }"""));
  }

  @Test
  void escapesAreDecodedAndFragmentsOfTheSheetLeftOut() {
    assertEquals(List.of("a).png", "b c.png", "é.png"), urls("""
        .a { background: url(a\\).png) } .b { background: url("b\\20 c.png") }
        .c { background: url(\\e9 .png) } .d { filter: url(#blur) } .e { mask: url( ) }"""));
  }

  @Test
  void aFunctionWhoseNameEndsInUrlIsNoUrl() {
    assertEquals(List.of("yes.png"), urls(".a { --x: myurl(no.png); background: url(yes.png) }"));
  }

  @Test
  void anUnclosedCommentOrStringEndsTheSheetQuietly() {
    assertEquals(List.of("a.png"), urls(".a { background: url(a.png) } /* never closed url(b.png)"));
    assertEquals(List.of(), urls("@import \"broken\n.css\"; .x {}"), "a string broken by a newline names nothing");
  }

  @Test
  void pastTheCapTheRestAreCounted() {
    List<String> found = new ArrayList<>();
    assertEquals(2, CssUrls.scan("a{b:url(1)}c{d:url(2)}e{f:url(3)}g{h:url(4)}", found, 2));
    assertEquals(List.of("1", "2"), found);
  }
}
