package io.sievecrawl.sieve.redis;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices that Redis went back to older data and lost the crawl's writes since: a restart from an older snapshot or
 * append-only file, or, on a Redis Cluster, one master's data replaced by older. The agent reads back two marks of
 * its own before writing them again: its heartbeat in the crawl-wide agents hash (the {@code {NAME}} slot's master),
 * and a stamp its lease renewal writes in the hash of each shard it holds ({@link Scripts#RENEW}; each shard's
 * slot, so on a cluster every master holding one of the agent's shards). A mark older than the last one written
 * means the writes since then are lost there: the caller puts back what the agent had in flight of those shards.
 *
 * <p>Writes made after the last mark and lost with it go unnoticed: a snapshot has to be older than the last
 * renewal (every third of the lease time, 3.3 s by default) for its loss to be seen this way. A master that restarts
 * is noticed anyway, by the outage it causes.
 */
final class LostWrites {
  private static final Logger log = LoggerFactory.getLogger(LostWrites.class);

  private final String uri;
  private final String agentId;
  private final Map<Integer, Long> stamped = new ConcurrentHashMap<>(); // per shard, the renewal last written there
  private long renewals; // guarded by the heartbeat's lock (ShardLeases.beat)
  private long lastBeat; // the Redis time this agent last wrote as its heartbeat, 0 before the first

  LostWrites(String uri, String agentId) {
    this.uri = uri;
    this.agentId = agentId;
  }

  /** Numbers the renewals of a heartbeat: the value their stamps carry. */
  long nextRenewal() {
    return ++renewals;
  }

  /** The stamp a renewal numbered {@code renewal} writes in a shard's hash: this agent and the number. */
  String stamp(long renewal) {
    return agentId + " " + renewal;
  }

  /**
   * After the renewal numbered {@code renewal} of {@code shard} found {@code before} in the shard's hash and wrote
   * its own stamp: whether the shard's Redis had lost this agent's last stamp there (older, another's, or none).
   */
  boolean shardWentBack(int shard, long renewal, String before) {
    Long last = stamped.put(shard, renewal);
    return last != null && !before.equals(stamp(last)) && !isLaterOwnStamp(before, last);
  }

  /** Warns that the data of {@code shards}, and no crawl-wide key, went back to older. */
  void tellShardsWentBack(java.util.List<Integer> shards) {
    log.warn("Redis at {} lost the shared crawl's writes to origin shard{} {}: their data is older than this agent's"
        + " last lease renewal there, so the cluster master holding them went back to an older snapshot or"
        + " append-only file; pages done in that time may be fetched again", uri, shards.size() == 1 ? "" : "s",
        shards.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", ")));
  }

  /** A renewal sent again after its reply was lost finds the stamp its first run wrote: not a loss. */
  private boolean isLaterOwnStamp(String before, long last) {
    String own = agentId + " ";
    return before.startsWith(own) && Long.parseLong(before.substring(own.length())) >= last;
  }

  /** The shard is not this agent's any more: another may stamp it. */
  void forget(int shard) {
    stamped.remove(shard);
  }

  /**
   * Whether Redis holds an older heartbeat of this agent ({@code kept}, from the agents hash) than the last it wrote,
   * logged as a warning. (An entry gone proves nothing: other agents remove one they think dead.)
   */
  boolean heartbeatWentBack(byte[] kept) {
    if (kept == null || lastBeat == 0) {
      return false;
    }
    long keptBeat = Long.parseLong(new String(kept, StandardCharsets.US_ASCII));
    if (keptBeat < lastBeat) {
      log.warn("Redis at {} lost the shared crawl's writes of at least the last {} ms: it holds an older heartbeat of"
          + " this agent than the last one written, so it was restored from an older snapshot or append-only file;"
          + " pages done in that time may be fetched again", uri, lastBeat - keptBeat);
      return true;
    }
    return false;
  }

  /** This agent wrote {@code now} as its heartbeat. */
  void beatWritten(long now) {
    lastBeat = now;
  }
}
