package io.sievecrawl.crawler.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.CrawlTask;
import io.sievecrawl.crawler.fetch.FetchResponse;
import io.sievecrawl.crawler.result.ErrorKind;
import org.junit.jupiter.api.Test;

class RedirectFollowUpTest {
  private final RedirectFollowUp step = new RedirectFollowUp(FakeChain.NORMALIZER,
      CrawlSettings.builder().set(Setting.MAX_REDIRECTS, 1).build().fetch());
  private final CrawlTask task = FakeChain.page("http://example.test/old");

  private static FetchResponse moved(String location) {
    return new FetchResponse(301, "text/html", "utf-8", location, null, null, false, new byte[0], 0, false,
        FakeChain.NOW, 10, null, null);
  }

  @Test
  void aRedirectIsRecordedWithItsTargetWhichIsOfferedAsTheNextHop() throws Exception {
    Outcome.Redirect redirect = (Outcome.Redirect) step.handle(FakeChain.fetched(task, moved("/new")));
    assertEquals("http://example.test/new", redirect.result().redirectTo());
    assertEquals("http://example.test/new", redirect.target().key());
    assertEquals(1, redirect.target().redirectHops());
    assertEquals("http://example.test/old", redirect.target().referrer());
  }

  @Test
  void aRedirectWithoutAUsableLocationOrPastTheLastHopIsRecordedAsAnError() throws Exception {
    Outcome.Complete none = (Outcome.Complete) step.handle(FakeChain.fetched(task, moved(null)));
    assertEquals(ErrorKind.BAD_REDIRECT, none.result().errorKind());
    Outcome.Complete unusable = (Outcome.Complete) step.handle(FakeChain.fetched(task, moved("http://[x")));
    assertEquals(ErrorKind.BAD_REDIRECT, unusable.result().errorKind());
    Outcome.Complete tooMany = (Outcome.Complete) step.handle(FakeChain.fetched(
        task.redirect(FakeChain.url("http://example.test/hop")), moved("/new")));
    assertEquals(ErrorKind.TOO_MANY_REDIRECTS, tooMany.result().errorKind());
    assertEquals("http://example.test/new", tooMany.result().redirectTo());
  }

  @Test
  void aSessionIdRedirectBackToTheSameUrlLeadsToTheUrlAsSent() throws Exception {
    CrawlTask app = FakeChain.page("http://example.test/app/");
    Outcome.Redirect redirect = (Outcome.Redirect) step.handle(FakeChain.fetched(app,
        moved("/app/;jsessionid=0123456789ABCDEF0123456789ABCDEF")));
    assertEquals("http://example.test/app/;jsessionid=0123456789ABCDEF0123456789ABCDEF", redirect.target().key());
  }

  @Test
  void anythingButARedirectPassesOn() throws Exception {
    assertSame(FakeChain.PASSED, step.handle(FakeChain.fetched(task, FakeChain.response(200, "text/html", ""))));
  }
}
