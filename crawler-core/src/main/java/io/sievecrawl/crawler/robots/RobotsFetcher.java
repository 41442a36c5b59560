package io.sievecrawl.crawler.robots;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import io.sievecrawl.crawler.fetch.Bodies;
import io.sievecrawl.crawler.fetch.CallTracker;
import io.sievecrawl.crawler.fetch.ConnectionPools;
import io.sievecrawl.crawler.fetch.FailureCause;
import java.io.IOException;
import java.util.List;
import java.util.function.Predicate;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Fetches and parses one origin's robots.txt per RFC 9309: 2xx gives the rules (the first 500 KiB, parsed by
 * crawler-commons), 4xx other than 429 means no restrictions, up to {@value #MAX_REDIRECTS} redirects are followed
 * (more means no restrictions too). A 429, a 5xx or a transient network error is a failure to try again later; a
 * refused connection, an unknown host or an untrusted certificate is a failure that will not go away by waiting.
 */
final class RobotsFetcher {
  static final int MAX_REDIRECTS = 5;
  private static final int MAX_ROBOTS_BYTES = 500 * 1024;

  /**
   * What one fetch found: the rules and their size, or why there are none.
   *
   * @param permanent whether retrying soon is pointless
   * @param unreachable whether the failure is the server's not being reachable (no HTTP answer at all)
   * @param expires for rules the crawl kept, when they expire; {@code null} for a fetch
   */
  record Outcome(BaseRobotRules rules, long bytes, String failure, boolean permanent, boolean unreachable,
      java.time.Instant expires) {
    static Outcome rules(BaseRobotRules rules, long bytes) {
      return new Outcome(rules, bytes, null, false, false, null);
    }

    /** Rules kept by the crawl ({@link RobotsStore}) until {@code expires}, not fetched now. */
    static Outcome kept(BaseRobotRules rules, long bytes, java.time.Instant expires) {
      return new Outcome(rules, bytes, null, false, false, expires);
    }

    static Outcome failed(String why, boolean permanent, boolean unreachable) {
      return new Outcome(null, 0, why, permanent, unreachable, null);
    }
  }

  private final ConnectionPools clients;
  private final Predicate<String> bare;
  private final CallTracker calls;
  private final String userAgent;
  private final List<String> robotNames;

  /**
   * @param clients the crawl's clients, which follow no redirect themselves
   * @param bare whether an origin is asked without the user's extra headers and cookies (outside the crawl's scope)
   */
  RobotsFetcher(ConnectionPools clients, Predicate<String> bare, CallTracker calls, String userAgent,
      String robotName) {
    this.clients = clients;
    this.bare = bare;
    this.calls = calls;
    this.userAgent = userAgent;
    this.robotNames = List.of(robotName);
  }

  /** The outcome of fetching {@code origin}'s robots.txt; never throws. */
  Outcome fetch(String origin) {
    try {
      return fetch(HttpUrl.get(origin + "/robots.txt"), bare.test(origin));
    } catch (IOException e) {
      FailureCause cause = FailureCause.of(e);
      return Outcome.failed(cause.description(), cause.permanent(), true);
    } catch (RuntimeException e) {
      return Outcome.failed(e.toString(), false, false);
    }
  }

  private Outcome fetch(HttpUrl robotsUrl, boolean asBare) throws IOException {
    HttpUrl current = robotsUrl;
    for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
      Request request = new Request.Builder().url(current).header("User-Agent", userAgent)
          .header("Accept-Encoding", Bodies.ACCEPT_ENCODING).build();
      Call call = (asBare ? clients.bareClientFor(current) : clients.clientFor(current)).newCall(request);
      CallTracker.Tracked tracked = calls.track(call);
      try (Response response = call.execute()) {
        int code = response.code();
        // Every body is read (to the size limit), so that a capture of the exchange is whole.
        Bodies.Raw raw = Bodies.read(response.body().source(), MAX_ROBOTS_BYTES, code >= 200 && code < 300);
        if (code >= 300 && code < 400 && response.header("Location") != null) {
          HttpUrl next = current.resolve(response.header("Location"));
          if (next == null) {
            return Outcome.rules(allowAll(), 0);
          }
          current = next;
          continue;
        }
        if (code >= 200 && code < 300) {
          byte[] content;
          try {
            content = Bodies.decode(raw.bytes(), response.header("Content-Encoding"), MAX_ROBOTS_BYTES).bytes();
          } catch (IOException undecodable) {
            content = new byte[0]; // rules nobody can read restrict nothing
          }
          String contentType = response.header("Content-Type", "text/plain");
          SimpleRobotRulesParser parser = new SimpleRobotRulesParser();
          parser.setMaxCrawlDelay(Long.MAX_VALUE);
          return Outcome.rules(parser.parseContent(current.toString(), content, contentType, robotNames),
              content.length);
        }
        if (code == 429 || code >= 500) {
          return Outcome.failed("robots.txt answered HTTP " + code, false, false);
        }
        return Outcome.rules(allowAll(), 0); // 4xx, and anything else unexpected: "unavailable" means no restrictions
      } finally {
        tracked.close();
      }
    }
    return Outcome.rules(allowAll(), 0); // more than five redirects: RFC 9309 treats it as unavailable
  }

  private static BaseRobotRules allowAll() {
    return new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_ALL);
  }
}
