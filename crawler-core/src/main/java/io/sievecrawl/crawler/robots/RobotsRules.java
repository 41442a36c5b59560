package io.sievecrawl.crawler.robots;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * robots.txt rules as a crawl keeps them ({@link RobotsStore}): what crawler-commons parsed for this crawler's
 * agent name, not the file. Lines of UTF-8: {@code sievecrawl-robots 1}, the mode ({@code all}, {@code none} or
 * {@code some}), the Crawl-delay in milliseconds ({@code -} when unset), then {@code S URL} per sitemap and
 * {@code A PATH} or {@code D PATH} per rule, as the parser normalized them. A few hundred bytes for most sites.
 */
final class RobotsRules {
  private static final String HEADER = "sievecrawl-robots 1";

  private RobotsRules() {}

  static byte[] encode(BaseRobotRules rules) {
    StringBuilder out = new StringBuilder(HEADER).append('\n');
    out.append(rules.isAllowAll() ? "all" : rules.isAllowNone() ? "none" : "some").append('\n');
    long delay = rules.getCrawlDelay();
    out.append(delay == BaseRobotRules.UNSET_CRAWL_DELAY ? "-" : Long.toString(delay)).append('\n');
    for (String sitemap : rules.getSitemaps()) {
      line(out, 'S', sitemap);
    }
    if (rules instanceof SimpleRobotRules simple) {
      for (SimpleRobotRules.RobotRule rule : simple.getRobotRules()) {
        line(out, rule.isAllow() ? 'A' : 'D', rule.getPrefix());
      }
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void line(StringBuilder out, char kind, String value) {
    if (value.indexOf('\n') < 0 && value.indexOf('\r') < 0) { // never in a parsed path or URL; skipped if it were
      out.append(kind).append(' ').append(value).append('\n');
    }
  }

  /** The rules {@code encoded} holds; {@code null} when it is not what {@link #encode} writes. */
  static BaseRobotRules decode(byte[] encoded) {
    List<String> lines = new String(encoded, StandardCharsets.UTF_8).lines().toList();
    if (lines.size() < 3 || !lines.get(0).equals(HEADER)) {
      return null;
    }
    SimpleRobotRules.RobotRulesMode mode = switch (lines.get(1)) {
      case "all" -> SimpleRobotRules.RobotRulesMode.ALLOW_ALL;
      case "none" -> SimpleRobotRules.RobotRulesMode.ALLOW_NONE;
      case "some" -> SimpleRobotRules.RobotRulesMode.ALLOW_SOME;
      default -> null;
    };
    if (mode == null) {
      return null;
    }
    SimpleRobotRules rules = new SimpleRobotRules(mode);
    try {
      if (!lines.get(2).equals("-")) {
        rules.setCrawlDelay(Long.parseLong(lines.get(2)));
      }
    } catch (NumberFormatException e) {
      return null;
    }
    for (String line : lines.subList(3, lines.size())) {
      if (line.length() < 2 || line.charAt(1) != ' ') {
        return null;
      }
      String value = line.substring(2);
      switch (line.charAt(0)) {
        case 'S' -> rules.addSitemap(value);
        case 'A' -> rules.addRule(value, true);
        case 'D' -> rules.addRule(value, false);
        default -> {
          return null;
        }
      }
    }
    rules.sortRules();
    return rules;
  }
}
