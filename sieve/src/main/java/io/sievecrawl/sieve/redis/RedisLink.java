package io.sievecrawl.sieve.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How an agent reaches Redis: one server, or a Redis Cluster found through any of its nodes, told apart when
 * connecting ({@code INFO cluster}). The crawl sees only the commands both kinds share, {@link RedisClusterCommands}:
 * on a cluster, Lettuce's cluster client sends each command to the master that serves its key's slot, follows
 * {@code MOVED} and {@code ASK}, and keeps its view of the cluster fresh (every {@link #TOPOLOGY_REFRESH}, and at
 * once on a redirect or a node it does not know).
 */
final class RedisLink implements AutoCloseable {
  /*
   * Design notes.
   *
   * 1. Lettuce's reconnection is off for both kinds (SharedConnection says why). A cluster connection holds one
   *    connection per node; when one of them drops, the whole cluster connection is made again (SharedConnection),
   *    after a fresh read of the topology (refreshTopology), so that a slot whose master died is sent to the replica
   *    that took over as soon as the cluster says so.
   * 2. Adaptive refreshes are rate-limited by Lettuce (30 s by default); one second here, so that a failover or a
   *    slot migration is seen within a second of the first redirect rather than half a minute.
   * 3. A cluster has database 0 only: a URI naming another is refused rather than silently using 0.
   * 4. Without reconnection, Lettuce's default rejects commands while "disconnected", and for a cluster that
   *    includes a command whose node connection is still being made (as every one is, lazily, at first): every
   *    first command to a node would fail. ACCEPT_COMMANDS lets such a command wait for its connection. A node
   *    connection that drops is not made again (note 1), and a command sent to it would wait out its timeout;
   *    SharedConnection replaces the whole cluster connection at the first failure instead, which fails the commands
   *    waiting on the old one at once (they are sent again on the new one).
   * 5. A master that died stays in the cluster's list of nodes, flagged as failed, after its replica took over,
   *    until an operator makes the cluster forget it. Lettuce would go on connecting to it at every refresh (and
   *    sends a command meant for "every master" to it as well); nodes flagged failed or without an address are left
   *    out of its view instead.
   * 6. A failover may lose the writes the master had not passed on yet, the acknowledgement of a page among them,
   *    without any command of this agent failing: one it sends while the master is away waits in Lettuce's buffer
   *    until a refresh of the topology sends it on to the replica that took over. Nothing tells the crawl, which
   *    would wait forever for a page it thinks it acknowledged; so the crawl checks the layout (its heartbeat does),
   *    and takes a change as it takes an outage.
   * 7. Each read of the topology asks every node for its view and Lettuce keeps one (by default the one that knows
   *    the most of the nodes it knew, which every view does). A node that has not yet heard that a master failed, or
   *    that its replica took over, would send the commands for that master's slots to a dead node for as long as its
   *    view is kept (seen: 5 s after the replica took over, until a later read picked another view). So only the
   *    views that know the newest configuration (the highest config epoch: a replica that takes over raises it)
   *    are offered to Lettuce's choice.
   */
  /** How often a cluster's topology is read again without a cause. */
  static final Duration TOPOLOGY_REFRESH = Duration.ofSeconds(10);
  private static final Duration ADAPTIVE_REFRESH_LIMIT = Duration.ofSeconds(1);

  /** A connection, of either kind, and its synchronous commands. */
  record Connection(StatefulConnection<String, byte[]> stateful, RedisClusterCommands<String, byte[]> sync) {
    boolean isOpen() {
      return stateful.isOpen();
    }
  }

  private final AbstractRedisClient client;
  private final Connection first;

  private RedisLink(AbstractRedisClient client, Connection first) {
    this.client = client;
    this.first = first;
  }

  /**
   * Connects to the Redis that {@code seeds} name (one server, or one or more nodes of a cluster), with
   * {@code timeout} on every command.
   *
   * @throws RedisException if no seed can be reached or Redis refuses us
   * @throws IllegalArgumentException saying what is wrong (starting with "the") with a URI that does not fit the
   *     Redis found: several seeds that are no cluster, a database other than 0 on a cluster
   */
  static RedisLink open(List<RedisURI> seeds, Duration timeout) {
    RedisException failure = null;
    for (RedisURI seed : seeds) {
      RedisClient probe = RedisClient.create(seed);
      probe.setOptions(ClientOptions.builder().autoReconnect(false)
          .timeoutOptions(TimeoutOptions.enabled(timeout)).build());
      StatefulRedisConnection<String, byte[]> connection;
      try {
        connection = probe.connect(SharedConnection.CODEC);
      } catch (RedisException e) {
        probe.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        if (seed.getDatabase() != 0 && RedisFailures.rootMessage(e).contains("SELECT is not allowed in cluster mode")) {
          throw notDatabaseZero(seed);
        }
        failure = e;
        continue;
      }
      boolean cluster;
      try {
        cluster = inClusterMode(connection);
      } catch (RedisException e) {
        closeProbe(probe);
        throw e;
      }
      if (!cluster) {
        if (seeds.size() > 1) {
          closeProbe(probe);
          throw new IllegalArgumentException("the URI names " + seeds.size() + " nodes, but " + seed.getHost() + ":"
              + seed.getPort() + " is a Redis without cluster mode: name that one server alone");
        }
        return new RedisLink(probe, new Connection(connection, connection.sync()));
      }
      closeProbe(probe);
      return cluster(seeds, timeout);
    }
    throw failure;
  }

  private static IllegalArgumentException notDatabaseZero(RedisURI seed) {
    return new IllegalArgumentException("the database is " + seed.getDatabase() + ", but a Redis Cluster has"
        + " database 0 only: leave /" + seed.getDatabase() + " out of the URI");
  }

  /** Whether the server runs in cluster mode; one that refuses INFO (renamed, or denied by an ACL) does not. */
  private static boolean inClusterMode(StatefulRedisConnection<String, byte[]> connection) {
    try {
      return connection.sync().info("cluster").contains("cluster_enabled:1");
    } catch (RedisCommandExecutionException e) {
      return false;
    }
  }

  private static RedisLink cluster(List<RedisURI> seeds, Duration timeout) {
    RedisClusterClient client = new NewestViewClient(seeds);
    client.setOptions(ClusterClientOptions.builder().autoReconnect(false) // note 1
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.ACCEPT_COMMANDS) // note 4
        .nodeFilter(RedisLink::serving) // note 5
        .timeoutOptions(TimeoutOptions.enabled(timeout))
        .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
            .enablePeriodicRefresh(TOPOLOGY_REFRESH)
            .enableAllAdaptiveRefreshTriggers()
            .adaptiveRefreshTriggersTimeout(ADAPTIVE_REFRESH_LIMIT) // note 2
            .build())
        .build());
    try {
      StatefulRedisClusterConnection<String, byte[]> connection = client.connect(SharedConnection.CODEC);
      return new RedisLink(client, new Connection(connection, connection.sync()));
    } catch (RedisException | IllegalArgumentException e) {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
      throw e;
    }
  }

  /** A cluster client that keeps only the most informed views of the topology (note 7). */
  private static final class NewestViewClient extends RedisClusterClient {
    NewestViewClient(List<RedisURI> seeds) {
      super(null, seeds); // null: the client makes, and shuts down, its own resources, as create() does
    }

    @Override
    protected Partitions determinePartitions(Partitions current, Map<RedisURI, Partitions> views) {
      return super.determinePartitions(current, newest(views));
    }
  }

  /**
   * The views of the topology that know the newest configuration: whose highest config epoch is the highest of all.
   * A view that knows a replica took over gives it that master's slots, whether or not it flags the dead master.
   */
  static Map<RedisURI, Partitions> newest(Map<RedisURI, Partitions> views) {
    Map<RedisURI, Partitions> kept = new LinkedHashMap<>();
    long newest = Long.MIN_VALUE;
    for (Map.Entry<RedisURI, Partitions> view : views.entrySet()) {
      long epoch = Long.MIN_VALUE;
      for (RedisClusterNode node : view.getValue()) {
        epoch = Math.max(epoch, node.getConfigEpoch());
      }
      if (epoch > newest) {
        kept.clear();
        newest = epoch;
      }
      if (epoch == newest) {
        kept.put(view.getKey(), view.getValue());
      }
    }
    return kept.isEmpty() ? views : kept;
  }

  /** Whether a node of the cluster's list may serve commands: neither failed (or suspected to be) nor unreachable. */
  private static boolean serving(RedisClusterNode node) {
    return !node.is(RedisClusterNode.NodeFlag.FAIL) && !node.is(RedisClusterNode.NodeFlag.EVENTUAL_FAIL)
        && !node.is(RedisClusterNode.NodeFlag.NOADDR);
  }

  private static void closeProbe(RedisClient client) {
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2)); // closes its connection: closed first, it was closed twice
  }

  /** Whether this is a Redis Cluster. */
  boolean cluster() {
    return client instanceof RedisClusterClient;
  }

  /** The connection made when connecting. */
  Connection first() {
    return first;
  }

  /**
   * A new connection.
   *
   * @throws RedisException while Redis cannot be reached
   */
  Connection connect() {
    if (client instanceof RedisClusterClient clusterClient) {
      StatefulRedisClusterConnection<String, byte[]> connection = clusterClient.connect(SharedConnection.CODEC);
      return new Connection(connection, connection.sync());
    }
    StatefulRedisConnection<String, byte[]> connection = ((RedisClient) client).connect(SharedConnection.CODEC);
    return new Connection(connection, connection.sync());
  }

  /**
   * Reads a cluster's topology again, now: after an outage, a slot may be served by another node (a replica that
   * took over, a slot migrated). Nothing for one server.
   *
   * @throws RedisException if no node answers
   */
  void refreshTopology() {
    if (client instanceof RedisClusterClient clusterClient) {
      clusterClient.refreshPartitions();
    }
  }

  /**
   * A fingerprint of which master serves which slots in this agent's view of a cluster (note 6): it changes when a
   * replica took over or a slot moved. 0 for one server.
   */
  long layout() {
    if (!(client instanceof RedisClusterClient clusterClient)) {
      return 0;
    }
    long layout = 1;
    for (RedisClusterNode node : clusterClient.getPartitions()) {
      if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
        layout += 31L * node.getNodeId().hashCode() + node.getSlots().hashCode();
      }
    }
    return layout;
  }

  /**
   * A watch telling {@code listener} of a master of the cluster that died, and shortening the wait for its replica
   * ({@link FailoverWatch}); {@code null} for one server.
   */
  FailoverWatch failoverWatch(io.sievecrawl.sieve.Ticker ticker, FailoverWatch.Listener listener) {
    return client instanceof RedisClusterClient clusterClient ? new FailoverWatch(clusterClient, ticker, listener)
        : null;
  }

  /** Shuts the client down, which closes every connection it made that is still open. */
  @Override
  public void close() {
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
  }
}
