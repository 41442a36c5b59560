package io.sievecrawl.sieve;

/**
 * The names of a frontier's queues. A queue is keyed by its origin ({@code scheme://host[:port]}), or is a
 * <em>lane</em> of an origin, keyed {@code ORIGIN LANE} (a space cannot appear in an origin): tasks that should go
 * before the rest of their origin's queue (a page's requisites) wait in a lane of their own. The frontier keeps a lane
 * as any queue; its users treat an origin and its lanes as one site: one politeness, and in a shared crawl one shard,
 * so that one agent at a time works an origin and all its lanes.
 */
public final class QueueKeys {
  private QueueKeys() {}

  /** The key of the lane {@code lane} of {@code origin}. */
  public static String lane(String origin, String lane) {
    return origin + ' ' + lane;
  }

  /** The origin a queue key belongs to: the key itself, or the origin of a lane. */
  public static String origin(String key) {
    int space = key.indexOf(' ');
    return space < 0 ? key : key.substring(0, space);
  }

  /** Whether {@code key} names a lane rather than an origin's own queue. */
  public static boolean isLane(String key) {
    return key.indexOf(' ') >= 0;
  }
}
