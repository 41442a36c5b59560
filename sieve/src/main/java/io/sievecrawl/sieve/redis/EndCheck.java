package io.sievecrawl.sieve.redis;

import io.sievecrawl.sieve.Ticker;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Whether a shared crawl is finished, as this agent checks it: nothing open in any shard, as two passes over every
 * shard's counts agree ({@link ShardCounts} note 1), not before the starting agent has queued its seeds.
 */
final class EndCheck {
  /*
   * Design notes.
   *
   * 1. A check is made at most every FINISHED_CHECK_NANOS, by one worker at a time (tryLock), the others answered from
   *    the last one, so idle workers do not hammer Redis; it reads only the counters it needs, and its first pass
   *    tells ShardWork which of this agent's shards hold open tasks (another agent may have lined an origin up there).
   * 2. While this agent holds no work (no origin checked out, no task handed out) and finds none (no origin checked
   *    out since the last check, no open task in its shards), the pause doubles up to IDLE_PAUSE_NANOS: on a cluster a
   *    check reads every shard's hash, most of what an idle agent costs. An origin checked out brings the short
   *    pause back at once. The cost: the last agent may see the end up to that longest pause late, and an idle agent
   *    may find the work another lines up in its shards that late too (as its line pauses do, ShardWork note 4).
   */
  static final long FINISHED_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
  /** The longest pause between checks, reached while this agent holds no work and finds none (note 2). */
  static final long IDLE_PAUSE_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final RedisCrawl crawl;
  private final Ticker ticker; // the agent's: the pauses between checks
  private final ShardWork work;
  private final LocalClaims claims;
  private final ReentrantLock checking = new ReentrantLock(); // only tried: one check at a time (note 1)
  private final AtomicLong checkedOut = new AtomicLong(); // origins checked out here so far
  private volatile long checkedOutAtLastCheck;
  private volatile long lastCheck; // by the ticker
  private volatile long pause = FINISHED_CHECK_NANOS; // grows while idle (note 2)
  private volatile boolean finished;

  EndCheck(RedisCrawl crawl, ShardWork work, LocalClaims claims) {
    this.crawl = crawl;
    this.ticker = crawl.ticker();
    this.work = work;
    this.claims = claims;
    this.lastCheck = ticker.nanos() - IDLE_PAUSE_NANOS; // never checked: the first call asks Redis
  }

  /** This agent checked an origin out: it has work, and checks again after the short pause (note 2). */
  void checkedOut() {
    checkedOut.incrementAndGet();
  }

  /** This agent admitted tasks: the crawl is not finished. */
  void admitted() {
    finished = false;
  }

  /** Whether nothing is open anywhere, as the last check found; checks again if its pause has passed. */
  boolean finished() {
    if (due() && checking.tryLock()) {
      try {
        if (due()) { // not checked meanwhile by the worker that held the lock
          check();
        }
      } finally {
        checking.unlock();
      }
    }
    return finished;
  }

  private boolean due() {
    long wait = checkedOut.get() != checkedOutAtLastCheck ? FINISHED_CHECK_NANOS : pause;
    return ticker.nanos() - lastCheck >= wait;
  }

  private void check() {
    long checkedOutBefore = checkedOut.get();
    boolean seeding = crawl.call(redis -> redis.hexists(crawl.key("counters"), "seeding"));
    boolean workHere = true;
    if (seeding) { // an agent that joins meanwhile would find nothing open
      finished = false;
    } else {
      List<ShardCounts.Shard> first = ShardCounts.readOpen(crawl);
      workHere = work.sawCounts(first);
      finished = ShardCounts.sum(first).open() <= 0 && ShardCounts.nothingOpen(first, ShardCounts.readOpen(crawl));
    }
    boolean idle = !finished && !workHere && checkedOutBefore == checkedOutAtLastCheck
        && claims.checkedOutCount() == 0 && claims.handedOutCount() == 0;
    pause = idle ? Math.min(2 * pause, IDLE_PAUSE_NANOS) : FINISHED_CHECK_NANOS;
    checkedOutAtLastCheck = checkedOutBefore;
    lastCheck = ticker.nanos();
  }
}
