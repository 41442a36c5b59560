package io.sievecrawl.crawler.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.config.CrawlSettings;
import io.sievecrawl.config.Scope;
import io.sievecrawl.config.Setting;
import io.sievecrawl.crawler.report.SkipReason;
import io.sievecrawl.crawler.url.Url;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ScopePolicyTest {
  private static final List<Url> SEEDS = List.of(url("https://www.example.co.uk/"), url("http://127.0.0.1:8080/"));

  private static Url url(String canonical) {
    return Url.ofCanonical(canonical);
  }

  private static ScopePolicy policy(Scope scope) {
    return new ScopePolicy(CrawlSettings.builder().set(Setting.SCOPE, scope).build(), SEEDS);
  }

  @Test
  void hostScopeKeepsToTheSeedsSites() {
    ScopePolicy host = policy(Scope.HOST);
    assertNull(host.rejection(url("https://www.example.co.uk/a"), 1));
    assertNull(host.rejection(url("http://www.example.co.uk/a"), 1), "http and https on their default ports: one site");
    assertNull(host.rejection(url("http://127.0.0.1:8080/b"), 1));
    assertEquals(SkipReason.OUT_OF_SCOPE_HOST, host.rejection(url("http://www.example.co.uk:8443/a"), 1),
        "another port is another server");
    assertEquals(SkipReason.OUT_OF_SCOPE_HOST, host.rejection(url("http://127.0.0.1:9999/"), 1));
    assertEquals(SkipReason.OUT_OF_SCOPE_HOST, host.rejection(url("http://127.0.0.1/"), 1));
    assertEquals(SkipReason.OUT_OF_SCOPE_HOST, host.rejection(url("https://blog.example.co.uk/"), 1));
    assertEquals(SkipReason.OUT_OF_SCOPE_HOST, host.rejection(url("https://example.com/"), 1));
  }

  @Test
  void credentialsGoToTheSeedsOriginsAndOverHttpsToTheirSites() {
    ScopePolicy any = new ScopePolicy(CrawlSettings.builder().set(Setting.SCOPE, Scope.ANY).build(),
        List.of(url("https://secure.example/"), url("http://plain.example/"), url("http://127.0.0.1:8080/")));
    assertTrue(any.takesCredentials("https://secure.example"));
    assertFalse(any.takesCredentials("http://secure.example"), "in clear, where the seed was https");
    assertFalse(any.takesCredentials("https://secure.example:8443"), "another port is another server");
    assertTrue(any.takesCredentials("http://plain.example"), "the seed's own origin, as the user gave it");
    assertTrue(any.takesCredentials("https://plain.example"), "an upgrade keeps them encrypted");
    assertTrue(any.takesCredentials("http://127.0.0.1:8080"));
    assertFalse(any.takesCredentials("http://127.0.0.1:8081"));
    assertFalse(any.takesCredentials("http://127.0.0.1"));
    assertFalse(any.takesCredentials("https://elsewhere.example"));
    assertFalse(any.takesCredentials("https://www.secure.example"));
  }

  @Test
  void anyScopeKeepsPublicPagesFromLeadingIntoTheLocalNetwork() {
    ScopePolicy any = new ScopePolicy(CrawlSettings.builder().set(Setting.SCOPE, Scope.ANY).build(),
        List.of(url("https://www.example.org/"), url("http://127.0.0.1:8080/")));
    assertNull(any.rejection(url("https://elsewhere.example/"), 1));
    assertNull(any.rejection(url("http://127.0.0.1:8080/x"), 1), "a seed's host may be local");
    for (String local : List.of("http://localhost/", "http://127.0.0.2/", "http://10.1.2.3/", "http://192.168.0.1/",
        "http://169.254.169.254/latest/meta-data/", "http://[::1]/", "http://[fd00::1]/", "http://app.localhost/")) {
      assertEquals(SkipReason.OUT_OF_SCOPE_PRIVATE, any.rejection(url(local), 1), local);
    }
    ScopePolicy allowed = new ScopePolicy(CrawlSettings.builder().set(Setting.SCOPE, Scope.ANY)
        .set(Setting.ALLOW_PRIVATE_ADDRESSES, true).build(), List.of(url("https://www.example.org/")));
    assertNull(allowed.rejection(url("http://10.1.2.3/"), 1));
  }

  @Test
  void aSeedRedirectTargetJoinsTheScope() {
    ScopePolicy host = policy(Scope.HOST);
    assertEquals(SkipReason.OUT_OF_SCOPE_HOST, host.rejection(url("https://example.co.uk/a"), 1));
    host.addSeedRedirect(url("https://www.example.co.uk/"), url("https://example.co.uk/"));
    assertNull(host.rejection(url("https://example.co.uk/a"), 1));
    host.addSeedRedirect(url("https://www.example.co.uk/"), url("https://login.other-site.com/consent"));
    assertEquals(SkipReason.OUT_OF_SCOPE_HOST, host.rejection(url("https://login.other-site.com/x"), 1), "another domain");
  }

  @Test
  void domainScopeUsesThePublicSuffixList() {
    ScopePolicy domain = policy(Scope.DOMAIN);
    assertNull(domain.rejection(url("https://blog.example.co.uk/"), 1));
    assertNull(domain.rejection(url("https://example.co.uk/"), 1));
    assertEquals(SkipReason.OUT_OF_SCOPE_HOST, domain.rejection(url("https://blog.example.co.uk:8443/"), 1),
        "another server");
    assertEquals(SkipReason.OUT_OF_SCOPE_HOST, domain.rejection(url("https://other.co.uk/"), 1), "co.uk is a public suffix");
    assertEquals("example.co.uk", ScopePolicy.registrableDomain("a.b.example.co.uk"));
    assertEquals("127.0.0.1", ScopePolicy.registrableDomain("127.0.0.1"));
    assertEquals("localhost", ScopePolicy.registrableDomain("localhost"));
  }

  @Test
  void anyScopeStillAppliesDepthPatternsAndTrapGuards() {
    ScopePolicy any = new ScopePolicy(CrawlSettings.builder().set(Setting.SCOPE, Scope.ANY)
        .parse(Setting.EXCLUDE, "\\.pdf$ /private/", "test").parse(Setting.MAX_DEPTH, "3", "test").build(), SEEDS);
    assertNull(any.rejection(url("https://anywhere.example/x"), 3));
    assertEquals(SkipReason.OUT_OF_SCOPE_DEPTH, any.rejection(url("https://anywhere.example/x"), 4));
    assertEquals(SkipReason.OUT_OF_SCOPE_PATTERN, any.rejection(url("https://anywhere.example/doc.pdf"), 1));
    assertEquals(SkipReason.OUT_OF_SCOPE_PATTERN, any.rejection(url("https://anywhere.example/private/x"), 1));
    assertEquals(SkipReason.OUT_OF_SCOPE_TRAP, any.rejection(url("https://a.example/x/y/x/y/x/y/x/"), 1));
    assertEquals(SkipReason.OUT_OF_SCOPE_TRAP, any.rejection(url("https://a.example/a/b/c/d/e/f/g/h/i/j/"
        + "k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/aa/bb/cc/dd/ee/ff/gg/"), 1));
  }

  @Test
  void includePatternsNarrowTheCrawl() {
    ScopePolicy only = new ScopePolicy(CrawlSettings.builder().parse(Setting.INCLUDE, "/docs/", "test").build(), SEEDS);
    assertNull(only.rejection(url("https://www.example.co.uk/docs/x"), 1));
    assertEquals(SkipReason.OUT_OF_SCOPE_PATTERN, only.rejection(url("https://www.example.co.uk/blog/x"), 1));
  }

  @Test
  void trapGuardsCountSegmentsAndRepeatsAtTheirLimits() {
    ScopePolicy host = policy(Scope.HOST); // 32 segments at most, a segment at most 3 times
    String site = "https://www.example.co.uk";
    StringBuilder path = new StringBuilder();
    for (int i = 0; i < 32; i++) {
      path.append("/p").append(i);
    }
    String thirtyTwo = path.toString();
    assertNull(host.rejection(url(site + thirtyTwo), 1));
    assertNull(host.rejection(url(site + thirtyTwo + "/"), 1), "a trailing slash adds no segment");
    assertNull(host.rejection(url(site + thirtyTwo + "?q=/a/b/c"), 1), "the query is not the path");
    assertEquals(SkipReason.OUT_OF_SCOPE_TRAP, host.rejection(url(site + thirtyTwo + "/x"), 1));
    assertNull(host.rejection(url(site + "/a/x/a/y/a/z"), 1), "three times is allowed");
    assertEquals(SkipReason.OUT_OF_SCOPE_TRAP, host.rejection(url(site + "/a/x/a/y/a/z/a"), 1));
    assertNull(host.rejection(url(site + "/ab/a/b/abc/ab/a/ab/b"), 1), "segments equal only as a whole");
    assertNull(host.rejection(url(site + "/a//b//c//d//e"), 1), "empty segments are not repeats");
  }

  /** The guard as the plain definition reads: split the path, count each non-empty segment. */
  private static boolean isTrapByDefinition(String path, int maxSegments, int maxRepeats) {
    String[] segments = path.substring(1).split("/");
    if (segments.length > maxSegments) {
      return true;
    }
    Map<String, Integer> counts = new HashMap<>();
    for (String segment : segments) {
      if (!segment.isEmpty() && counts.merge(segment, 1, Integer::sum) > maxRepeats) {
        return true;
      }
    }
    return false;
  }

  @Test
  void trapGuardsAgreeWithTheirDefinitionOnRandomPaths() {
    Random random = new Random(20261123);
    for (int[] limits : new int[][] {{32, 3}, {8, 1}, {200, 2}, {10_000, 5}}) {
      ScopePolicy policy = new ScopePolicy(CrawlSettings.builder()
          .parse(Setting.MAX_PATH_SEGMENTS, String.valueOf(limits[0]), "test")
          .parse(Setting.MAX_SEGMENT_REPEATS, String.valueOf(limits[1]), "test").build(), SEEDS);
      for (int i = 0; i < 20_000; i++) {
        StringBuilder path = new StringBuilder();
        int segments = 1 + random.nextInt(random.nextBoolean() ? 12 : 150);
        for (int j = 0; j < segments; j++) {
          path.append('/');
          int kind = random.nextInt(10);
          path.append(kind == 0 ? "" : kind < 8 ? String.valueOf((char) ('a' + random.nextInt(6)))
              : "seg" + random.nextInt(40));
        }
        String p = path.toString();
        boolean expected = isTrapByDefinition(p, limits[0], limits[1]);
        assertEquals(expected, policy.rejection(url("https://www.example.co.uk" + p), 1) == SkipReason.OUT_OF_SCOPE_TRAP,
            p + " with limits " + limits[0] + "/" + limits[1]);
      }
    }
  }
}
