package io.sievecrawl.sieve.redis;

import io.lettuce.core.MigrateArgs;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What an operator does to a running {@link RedisCluster} under a crawl: moves a slot to another master, as
 * {@code redis-cli --cluster reshard} does, has a replica take over from its master, as {@code CLUSTER FAILOVER}
 * does, or puts a master's data back as it was, as a restart from an older snapshot would. Every wait polls the
 * cluster's state against a deadline.
 */
final class ClusterMoves {
  private static final Duration FAILOVER_DEADLINE = Duration.ofSeconds(60);

  private ClusterMoves() {}

  /** The hash slot of {@code key}. */
  static int slotOf(RedisCluster cluster, String key) {
    return cluster.withNode(cluster.masters().get(0), redis -> redis.sync().clusterKeyslot(key)).intValue();
  }

  /**
   * Moves {@code slot} from {@code from} to {@code to} as {@code redis-cli --cluster reshard} does, while clients go
   * on using it: the target imports it, the source migrates it, its keys move {@code keysPerStep} at a time (a
   * client meanwhile gets {@code ASK} for a key moved, {@code TRYAGAIN} for a command whose keys are split), and then
   * every master is told the slot's new node. {@code betweenSteps} runs after each step (to let clients work).
   */
  static void migrateSlot(RedisCluster cluster, int slot, RedisCluster.Node from, RedisCluster.Node to,
      int keysPerStep, Runnable betweenSteps) {
    String fromId = cluster.withNode(from, redis -> redis.sync().clusterMyId());
    String toId = cluster.withNode(to, redis -> redis.sync().clusterMyId());
    cluster.withNode(to, redis -> redis.sync().clusterSetSlotImporting(slot, fromId));
    cluster.withNode(from, redis -> {
      redis.sync().clusterSetSlotMigrating(slot, toId);
      while (true) {
        List<String> keys = redis.sync().clusterGetKeysInSlot(slot, keysPerStep);
        if (keys.isEmpty()) {
          return null;
        }
        redis.sync().migrate("127.0.0.1", to.port(), 0, 10_000, MigrateArgs.Builder.keys(keys));
        betweenSteps.run();
      }
    });
    cluster.withNode(to, redis -> redis.sync().clusterSetSlotNode(slot, toId));
    cluster.withNode(from, redis -> redis.sync().clusterSetSlotNode(slot, toId));
    for (RedisCluster.Node master : cluster.masters()) {
      cluster.withNode(master, redis -> redis.sync().clusterSetSlotNode(slot, toId));
    }
  }

  /** The running replica of {@code master}. */
  static RedisCluster.Node replicaOf(RedisCluster cluster, RedisCluster.Node master) {
    String masterId = cluster.withNode(master, redis -> redis.sync().clusterMyId());
    return cluster.nodes().stream().filter(RedisCluster.Node::alive).filter(node -> node != master)
        .filter(node -> cluster.withNode(node, redis -> redis.sync().clusterNodes()).lines()
            .anyMatch(line -> line.contains("myself,slave") && line.contains(" " + masterId + " ")))
        .findFirst().orElseThrow(() -> new IllegalStateException(master + " has no running replica"));
  }

  /**
   * Has {@code replica} take over from its master as {@code CLUSTER FAILOVER} does (the master hands over once the
   * replica has every write), and waits until the replica serves as master and the cluster is healthy again.
   */
  static void failOver(RedisCluster cluster, RedisCluster.Node replica) throws InterruptedException {
    cluster.withNode(replica, redis -> redis.sync().clusterFailover(false));
    if (!RedisCluster.await(FAILOVER_DEADLINE, () -> cluster.withNode(replica, redis -> redis.sync()
        .info("replication")).contains("role:master"))) {
      throw new IllegalStateException(replica + " did not take over within " + FAILOVER_DEADLINE.toSeconds() + " s");
    }
    cluster.awaitHealthy();
  }

  /** A master's keys as they were: each one's DUMP and time to live. */
  static final class Snapshot {
    private record Kept(byte[] dump, long ttlMillis) {}

    private final RedisCluster cluster;
    private final RedisCluster.Node node;
    private final Map<String, Kept> keys;

    private Snapshot(RedisCluster cluster, RedisCluster.Node node, Map<String, Kept> keys) {
      this.cluster = cluster;
      this.node = node;
      this.keys = keys;
    }

    /** Writes every key kept back as it was (keys made since stay). */
    void restore() {
      keys.forEach((key, kept) -> cluster.withNode(node, redis -> redis.sync().restore(key, kept.dump(),
          io.lettuce.core.RestoreArgs.Builder.ttl(Math.max(0, kept.ttlMillis())).replace())));
    }
  }

  /** Every key {@code node} holds now, to {@link Snapshot#restore} later. */
  static Snapshot snapshot(RedisCluster cluster, RedisCluster.Node node) {
    return cluster.withNode(node, redis -> {
      Map<String, Snapshot.Kept> kept = new HashMap<>();
      for (String key : redis.sync().keys("*")) {
        kept.put(key, new Snapshot.Kept(redis.sync().dump(key), redis.sync().pttl(key)));
      }
      return new Snapshot(cluster, node, kept);
    });
  }
}
