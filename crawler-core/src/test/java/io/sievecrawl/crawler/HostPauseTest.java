package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.result.CrawlResult;
import io.sievecrawl.crawler.result.ErrorKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A host that answers 503 with Retry-After gets its rest even when the crawler gives that URL up. */
class HostPauseTest {
  @RegisterExtension
  final LoopbackSite loopback = new LoopbackSite();
  private final WireMockServer server = loopback.server();
  private String root;

  @BeforeEach
  void serve() {
    root = loopback.root();
    server.stubFor(get(urlEqualTo("/robots.txt")).willReturn(aResponse().withStatus(404)));
    Html.serve(server, "/", Html.page("root", "/busy", "/next"));
    server.stubFor(get(urlEqualTo("/busy")).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "1")));
    Html.serve(server, "/next", Html.page("next"));
  }

  @Test
  void theHostRestsForItsRetryAfterAfterTheLastRetry() {
    CrawlSettings settings = CrawlSettings.builder().set(Setting.DELAY, Duration.ZERO).set(Setting.ADAPTIVE, false).set(Setting.FILTER_N, 1_000L)
        .set(Setting.MAX_RETRIES, 0).set(Setting.HOST_CONCURRENCY, 1).build();
    CollectingSink sink = new CollectingSink();
    Crawler.create(settings, sink).run(List.of(root + "/"));

    CrawlResult busy = sink.get(root + "/busy");
    assertEquals(ErrorKind.RETRIES_EXHAUSTED, busy.errorKind());
    CrawlResult next = sink.get(root + "/next");
    long gap = Duration.between(busy.fetchedAt().plusMillis(busy.fetchMillis()), next.fetchedAt()).toMillis();
    assertTrue(gap >= 900, "the next request came " + gap + " ms after the 503 asked for 1 s");
  }
}
