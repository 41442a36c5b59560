package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test site: a WireMock server on a free loopback port, started before each test (before its {@code @BeforeEach}
 * methods, which stub its pages) and stopped after it. A path nothing stubs answers 404, robots.txt included.
 *
 * <pre>
 * &#64;RegisterExtension
 * final LoopbackSite loopback = new LoopbackSite();
 * </pre>
 */
final class LoopbackSite implements BeforeEachCallback, AfterEachCallback {
  private final WireMockServer server = new WireMockServer(options().dynamicPort());

  @Override
  public void beforeEach(ExtensionContext context) {
    server.start();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    server.stop();
  }

  WireMockServer server() {
    return server;
  }

  /** {@code http://localhost:PORT}, without a trailing slash. */
  String root() {
    return "http://localhost:" + server.port();
  }
}
