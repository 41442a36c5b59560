package io.sievecrawl.crawler.robots;

import java.time.Instant;

/**
 * Where a crawl keeps the robots.txt rules it fetched beyond the memory of one process: its crawl directory, or Redis
 * for a shared crawl. A resumed crawl, or an agent that takes an origin over from another, uses the rules kept until
 * they expire instead of fetching robots.txt again. Called from background threads, never under a lock; a store that
 * cannot answer answers {@code null}, and robots.txt is fetched.
 */
public interface RobotsStore {
  /** Nothing kept: every process fetches robots.txt itself. */
  RobotsStore NONE = new RobotsStore() {
    @Override
    public Kept load(String origin) {
      return null;
    }

    @Override
    public void save(String origin, Kept kept) {}
  };

  /**
   * The rules of one origin, encoded ({@link RobotsRules}), and when they expire.
   *
   * @param expires when they must be fetched again: RFC 9309 keeps rules for 24 hours at most
   */
  record Kept(Instant expires, byte[] rules) {}

  /** The rules kept for {@code origin}, or {@code null} when none are (or the store cannot answer now). */
  Kept load(String origin);

  /** Keeps {@code kept} for {@code origin} until it expires, replacing what was kept; failures are not the caller's. */
  void save(String origin, Kept kept);
}
