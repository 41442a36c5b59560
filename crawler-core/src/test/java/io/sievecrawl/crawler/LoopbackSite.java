package io.sievecrawl.crawler;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
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
 *
 * <p>In a static field, or in a {@code @TestInstance(PER_CLASS)} class, the site lives as long as the class: it is
 * started before the class's {@code @BeforeAll} methods (which may stub it and crawl it once for every test) and
 * stopped after its {@code @AfterAll} methods. A test that needs two sites registers two.
 */
public final class LoopbackSite implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
  private final WireMockServer server;
  private boolean forTheClass;

  /** A site whose server gzips a response when the request accepts it, as most web servers do. */
  public LoopbackSite() {
    this(new WireMockServer(options().dynamicPort()));
  }

  private LoopbackSite(WireMockServer server) {
    this.server = server;
  }

  /** A site whose server compresses nothing by itself: each body goes out as stubbed, byte for byte. */
  static LoopbackSite uncompressed() {
    return new LoopbackSite(new WireMockServer(options().dynamicPort().gzipDisabled(true)));
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    forTheClass = true;
    server.start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    server.stop();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (!forTheClass) {
      server.start();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (!forTheClass) {
      server.stop();
    }
  }

  public WireMockServer server() {
    return server;
  }

  /** {@code http://localhost:PORT}, without a trailing slash. */
  public String root() {
    return "http://localhost:" + server.port();
  }
}
