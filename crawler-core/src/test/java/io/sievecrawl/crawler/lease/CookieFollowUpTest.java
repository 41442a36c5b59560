package io.sievecrawl.crawler.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.fetch.PageFetcher;
import io.sievecrawl.sieve.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import okhttp3.Cookie;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CookieFollowUpTest {
  private final CrawlSettings settings = CrawlSettings.builder().set(Setting.MAX_REDIRECTS, 2).build();
  private final PageFetcher fetcher = PageFetcher.builder(settings, Clock.systemUTC(), Ticker.SYSTEM).build();
  private final CookieFollowUp step = new CookieFollowUp(fetcher, settings.fetch());

  @AfterEach
  void close() {
    fetcher.close();
  }

  private static FetchResponse redirect(String location, boolean setsCookie) {
    return new FetchResponse(302, "text/html", "utf-8", location, null, null, setsCookie, new byte[0], 0, false,
        FakeChain.NOW, 10, null, null);
  }

  @Test
  void aPageThatSetsACookieAndRedirectsToItselfIsFetchedAgainWithIt() throws Exception {
    CrawlTask page = FakeChain.page("http://example.test/");
    Outcome.HandBack again = (Outcome.HandBack) step.handle(FakeChain.fetched(page, redirect("/", true)));
    assertEquals(page.againWithCookie(), again.next());
    assertEquals(Duration.ZERO, again.after());
    assertSame(FakeChain.PASSED, step.handle(FakeChain.fetched(page, redirect("/", false))), "no cookie: a loop");
  }

  @Test
  void aCheckPageThatSendsBackToTheUrlThatRedirectedHereHasThatUrlFetchedAgainInItsPlace() throws Exception {
    CrawlTask check = FakeChain.page("http://example.test/").redirect(FakeChain.url("http://example.test/check"));
    FakeChain chain = FakeChain.fetched(check, redirect("http://example.test/", false));
    assertSame(FakeChain.PASSED, step.handle(chain), "no cookie held for the page yet");

    fetcher.restoreCookies(List.of(new Cookie.Builder().name("consent").value("yes").domain("example.test")
        .path("/").build()));
    Outcome.HandBack back = (Outcome.HandBack) step.handle(FakeChain.fetched(check,
        redirect("http://example.test/", false)));
    assertEquals(check.backTo(FakeChain.url("http://example.test/")), back.next());
  }

  @Test
  void pastFetchMaxRedirectsNothingIsFetchedAgain() throws Exception {
    CrawlTask page = FakeChain.page("http://example.test/");
    CrawlTask twice = page.againWithCookie().againWithCookie();
    assertSame(FakeChain.PASSED, step.handle(FakeChain.fetched(twice, redirect("/", true))));
  }
}
