package io.sievecrawl.sieve.redis;

import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.sievecrawl.sieve.Ticker;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.Disposable;

/**
 * Tells an agent on a Redis Cluster that a master serving the crawl's keys died, once per master, and cuts short
 * the wait of the commands bound for it: from a command that has waited longer than {@link #STALL}, the cluster's
 * topology is read again every {@link #REFRESH_EVERY} until the replica that takes over is known, rather than at
 * Lettuce's next periodic refresh.
 */
final class FailoverWatch implements AutoCloseable {
  /*
   * Design notes.
   *
   * 1. Why a watch: with reconnection off (SharedConnection), a command bound for a master that died either fails
   *    (its connection refused: OutageRetry sees an outage) or waits, held by Lettuce for that node, until a read of
   *    the topology no longer lists the node and Lettuce sends it to the master that took over its slots. Nothing
   *    fails meanwhile, and Lettuce raises no event for it: the watch looks at the commands in flight instead.
   * 2. Which master died: the masters ever seen serving slots are tried with a TCP connect (PROBE_TIMEOUT); one
   *    that refuses or does not answer is named. A master that is merely slow still accepts a connection, so a slow
   *    command is no failover; a graceful failover leaves the old master reachable, so it is none either.
   * 3. An agent with no command waiting may learn of a failover from a read of the topology (its own or Lettuce's
   *    periodic one): a master that served slots is gone from the new view, and is unreachable. It is told as well,
   *    so that every agent whose keys were on the dead master tells of it once, whichever way it learned.
   * 4. One WARN per outage: every way in ends at OutageRetry, which logs one WARN per outage and the INFO when a
   *    command answers again; a master told of is not told again while it stays away.
   */
  /** How long a command may wait before the watch looks for a master that died. */
  static final Duration STALL = Duration.ofSeconds(1);
  /** How often the topology is read while a command waits on a master that died. */
  static final Duration REFRESH_EVERY = Duration.ofMillis(500);
  private static final Duration TICK = Duration.ofMillis(250);
  private static final int PROBE_TIMEOUT_MILLIS = 500;

  /** Where a failover is told: {@code since} on the agent's ticker, when the commands began to wait. */
  interface Listener {
    void failingOver(String what, long since);
  }

  private final RedisClusterClient client;
  private final Ticker ticker;
  private final Listener listener;
  private final Map<Long, long[]> inFlight = new ConcurrentHashMap<>(); // id -> {System.nanoTime, ticker}
  private final AtomicLong ids = new AtomicLong();
  private final Map<String, Boolean> masters = new ConcurrentHashMap<>(); // host:port of every master seen
  private final Set<String> told = ConcurrentHashMap.newKeySet(); // masters told of as dead, while they stay away
  private final ScheduledExecutorService timer;
  private final Disposable events;
  private long lastRefresh = System.nanoTime() - REFRESH_EVERY.toNanos(); // touched by the timer's thread only

  FailoverWatch(RedisClusterClient client, Ticker ticker, Listener listener) {
    this.client = client;
    this.ticker = ticker;
    this.listener = listener;
    noteMasters(client.getPartitions());
    this.timer = Executors.newSingleThreadScheduledExecutor(task -> {
      Thread thread = new Thread(task, "sievecrawl-failover-watch");
      thread.setDaemon(true);
      return thread;
    });
    timer.scheduleWithFixedDelay(this::look, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
    this.events = client.getResources().eventBus().get()
        .filter(ClusterTopologyChangedEvent.class::isInstance)
        .subscribe(event -> onTimer(() -> topologyChanged((ClusterTopologyChangedEvent) event)));
  }

  /** A command is about to be sent; returns the id to give {@link #done}. */
  long sending() {
    long id = ids.incrementAndGet();
    inFlight.put(id, new long[] {System.nanoTime(), ticker.nanos()});
    return id;
  }

  /** The command {@code id} answered or failed. */
  void done(long id) {
    inFlight.remove(id);
  }

  /**
   * What to say of an outage that may be a failover: the masters that cannot be reached, marked told; {@code null}
   * when every master answers (or every one that does not was told already).
   */
  String unreachableMasters() {
    List<String> dead = new ArrayList<>();
    for (String master : masters.keySet()) {
      if (!told.contains(master) && !reachable(master) && told.add(master)) {
        dead.add(master);
      }
    }
    return dead.isEmpty() ? null : describe(dead);
  }

  static String describe(List<String> dead) {
    return "cannot serve the crawl's keys: " + (dead.size() == 1 ? "master " + dead.get(0) + " is"
        : "masters " + String.join(", ", dead) + " are") + " unreachable, its slots failing over to a replica";
  }

  /** Every tick: a command waiting past STALL has the dead masters told and the topology read again. */
  private void look() {
    long now = System.nanoTime();
    long[] oldest = null;
    for (long[] sent : inFlight.values()) {
      if (oldest == null || sent[0] - oldest[0] < 0) {
        oldest = sent;
      }
    }
    if (oldest == null || now - oldest[0] < STALL.toNanos()) {
      return;
    }
    String dead = unreachableMasters();
    if (dead != null) {
      listener.failingOver(dead, oldest[1]);
    }
    if (now - lastRefresh >= REFRESH_EVERY.toNanos()) {
      lastRefresh = now;
      try {
        client.refreshPartitions(); // sends what waits on a master no longer listed to the one that took over
      } catch (RedisException | IllegalStateException e) {
        // no node answered: the next tick tries again, and the commands fail in their own time
      }
    }
  }

  /** A read of the topology changed it (note 3). */
  private void topologyChanged(ClusterTopologyChangedEvent event) {
    List<String> gone = new ArrayList<>();
    Set<String> servingNow = new java.util.HashSet<>();
    for (RedisClusterNode node : event.after()) {
      if (servesSlots(node)) {
        servingNow.add(address(node));
      }
    }
    for (RedisClusterNode node : event.before()) {
      String master = address(node);
      if (servesSlots(node) && !servingNow.contains(master) && !told.contains(master) && !reachable(master)
          && told.add(master)) {
        gone.add(master);
      }
    }
    told.removeAll(servingNow); // back and serving: it may be told of again
    noteMasters(event.after());
    if (!gone.isEmpty()) {
      listener.failingOver(describe(gone), ticker.nanos());
    }
  }

  private void noteMasters(Iterable<RedisClusterNode> nodes) {
    for (RedisClusterNode node : nodes) {
      if (servesSlots(node)) {
        masters.put(address(node), Boolean.TRUE);
      }
    }
  }

  private static boolean servesSlots(RedisClusterNode node) {
    return node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.getSlots().isEmpty() && node.getUri() != null;
  }

  private static String address(RedisClusterNode node) {
    RedisURI uri = node.getUri();
    return uri.getHost() + ":" + uri.getPort();
  }

  /** Whether a TCP connection to {@code master} (host:port) is accepted (note 2). */
  private static boolean reachable(String master) {
    int colon = master.lastIndexOf(':');
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(master.substring(0, colon), Integer.parseInt(master.substring(colon + 1))),
          PROBE_TIMEOUT_MILLIS);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private void onTimer(Runnable task) {
    try {
      timer.execute(task);
    } catch (RejectedExecutionException closed) {
      // the agent is closing
    }
  }

  @Override
  public void close() {
    events.dispose();
    timer.shutdownNow();
  }
}
