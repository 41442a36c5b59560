package io.sievecrawl.sieve.redis;

import io.sievecrawl.sieve.BloomSizing;

/**
 * The Lua scripts of a shared crawl. Each runs atomically in Redis and touches keys of one hash slot: the crawl's
 * (its tag {@code {NAME}}) or one shard's (on a cluster {@code {NAME:S}}), except that on one Redis, where every
 * key has the crawl's tag, one script may check origins out of several shards or admit tasks of several. A script
 * that finds its marker gone (the meta hash, a shard's hash) answers {@value #LOST}: Redis lost the crawl's data.
 *
 * <p>A script whose reply was lost with the connection is run again ({@link OutageRetry}), though the first run may
 * have been applied: each script's "Run twice" says why that is safe, or what it costs. None loses a task or hands
 * one out twice.
 */
final class Scripts {
  static final String LOST = "SIEVECRAWL_LOST";

  /** Bytes of filter per Redis key. */
  static final int CHUNK_BYTES = RedisAdmission.CHUNK_BLOCKS * BloomSizing.BLOCK_BITS / Byte.SIZE;

  private Scripts() {}

  /**
   * Checks out the first origin in line among several shards' lines: KEYS the line keys, then the same shards' lease
   * keys; ARGV the index to start at (so that shards take turns), the agent. A line whose lease is not the agent's is
   * skipped: an agent that has not noticed yet that it lost a shard takes nothing from its new owner. Returns {index,
   * origin}, or nil when every line is empty.
   *
   * <p>Run twice: the second run takes another origin, and the first one is out of line though its list may hold
   * tasks; for that reason an agent lines up every origin of its shards after an outage.
   */
  static final String NEXT_QUEUE = """
      local n = #KEYS / 2
      local start = tonumber(ARGV[1])
      for i = 0, n - 1 do
        local at = ((start + i) %% n) + 1
        if redis.call('GET', KEYS[n + at]) == ARGV[2] then
          local origin = redis.call('LPOP', KEYS[at])
          if origin then return {at - 1, origin} end
        end
      end
      return false
      """.formatted();

  /**
   * Claims up to ARGV[1] tasks from the head of an origin's list: KEYS list, flight hash, origin set, the shard's
   * lease; ARGV count, origin, agent, then one flight field per task to claim (fields are never used twice). Each
   * claimed task is kept in the flight hash under its field until acknowledged, so that the shard's next owner can
   * hand it out again. An origin left empty leaves the set. Nothing is claimed unless the lease is the agent's: a
   * claim after another agent took the shard over would stay in flight unseen. Returns the tasks claimed, oldest
   * first.
   *
   * <p>Run twice: the first field is in the flight hash already, so the second run answers what the first one
   * claimed (even if the lease has lapsed since), and claims nothing more.
   */
  static final String CLAIM = """
      if redis.call('HEXISTS', KEYS[2], ARGV[4]) == 1 then
        local claimed = {}
        for i = 4, #ARGV do
          local task = redis.call('HGET', KEYS[2], ARGV[i])
          if not task then break end
          claimed[#claimed + 1] = task
        end
        return claimed
      end
      if redis.call('GET', KEYS[4]) ~= ARGV[3] then return {} end
      local tasks = redis.call('LPOP', KEYS[1], tonumber(ARGV[1]))
      if not tasks then return {} end
      for i = 1, #tasks do redis.call('HSET', KEYS[2], ARGV[3 + i], tasks[i]) end
      if redis.call('LLEN', KEYS[1]) == 0 then redis.call('SREM', KEYS[3], ARGV[2]) end
      return tasks
      """;

  /**
   * Puts claimed tasks back at the head of their origin's list, in their order, and the origin back in line if its
   * list holds tasks: KEYS list, flight hash, line, origin set; ARGV origin, then field and task pairs, oldest
   * first. A field no longer in the flight hash (another agent has its task now) is skipped. Returns the tasks put
   * back.
   *
   * <p>Run twice: the fields are gone from the flight hash, so nothing is put back twice (the origin may be lined up
   * twice, which is harmless).
   */
  static final String UNCLAIM = """
      local back = 0
      for i = #ARGV - 1, 2, -2 do
        if redis.call('HDEL', KEYS[2], ARGV[i]) == 1 then
          redis.call('LPUSH', KEYS[1], ARGV[i + 1])
          back = back + 1
        end
      end
      if redis.call('LLEN', KEYS[1]) > 0 then
        redis.call('RPUSH', KEYS[3], ARGV[1])
        redis.call('SADD', KEYS[4], ARGV[1])
      end
      return back
      """;

  /**
   * Puts back claims of a shard nobody holds (its previous owner's, or this agent's own it no longer holds) and lines
   * up its origins, for several origins at once: KEYS flight hash, line, origin set, the shard's lease, then one list
   * key per origin; ARGV the agent, then per origin: the origin, the number of its claims to put back, then field and
   * task pairs, oldest first. Nothing is done unless the lease is the agent's (answers -1): a shard lost meanwhile
   * keeps its new owner's claims. A claim whose field is no longer in the flight hash is skipped; an origin whose list
   * then holds tasks goes into line (duplicates in a line are harmless). Returns the claims put back.
   *
   * <p>Run twice: as {@link #UNCLAIM}.
   */
  static final String TAKE_OVER = """
      if redis.call('GET', KEYS[4]) ~= ARGV[1] then return -1 end
      local back = 0
      local pos = 2
      for i = 5, #KEYS do
        local origin = ARGV[pos]
        local claims = tonumber(ARGV[pos + 1])
        local first = pos + 2
        pos = first + 2 * claims
        for j = pos - 2, first, -2 do
          if redis.call('HDEL', KEYS[1], ARGV[j]) == 1 then
            redis.call('LPUSH', KEYS[i], ARGV[j + 1])
            back = back + 1
          end
        end
        if redis.call('LLEN', KEYS[i]) > 0 then
          redis.call('RPUSH', KEYS[2], origin)
          redis.call('SADD', KEYS[3], origin)
        end
      end
      return back
      """;

  /**
   * Acknowledges a task: KEYS flight hash, the shard's hash; ARGV field. Returns 1 if it was open. The shard counts
   * it done (its open tasks are those admitted less those done). Run twice: the field is gone, so the task is counted
   * done once.
   */
  static final String ACK = """
      local acked = redis.call('HDEL', KEYS[1], ARGV[1])
      if acked == 1 then redis.call('HINCRBY', KEYS[2], 'done', 1) end
      return acked
      """;

  /**
   * Renews a lease if this agent still holds it, or holds it again if it expired and no agent took the shard since
   * this one did (an outage longer than the lease, a slow heartbeat): its claims in flight are then all its own.
   * Renewed, it stamps the shard's hash ({@code renewed}) and answers the stamp found there before, so that the agent
   * sees a shard gone back to older data ({@link LostWrites}). KEYS lease, the shard's hash (its {@code owner});
   * ARGV agent, ttl ms, stamp. Returns {1, the stamp before} if renewed, else {0, ''}. Run twice: renews again,
   * answering the stamp the first run wrote.
   */
  static final String RENEW = """
      local holder = redis.call('GET', KEYS[1])
      if holder == ARGV[1] or (not holder and redis.call('HGET', KEYS[2], 'owner') == ARGV[1]) then
        redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
        local before = redis.call('HGET', KEYS[2], 'renewed') or ''
        redis.call('HSET', KEYS[2], 'renewed', ARGV[3])
        return {1, before}
      end
      return {0, ''}
      """;

  /**
   * Takes a free lease, noting this agent as the shard's last taker: KEYS lease, the shard's hash; ARGV agent, ttl
   * ms. Returns 1 if taken. Run twice: the lease is this agent's already, which answers 1 as the first run did.
   */
  static final String TAKE = """
      local holder = redis.call('GET', KEYS[1])
      if holder == ARGV[1] then
        redis.call('PEXPIRE', KEYS[1], ARGV[2])
        return 1
      end
      if holder then return 0 end
      redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
      redis.call('HSET', KEYS[2], 'owner', ARGV[1])
      return 1
      """;

  /** Releases a lease if this agent holds it: KEYS lease; ARGV agent. Run twice: the lease is not the agent's. */
  static final String RELEASE = """
      if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
      return 0
      """;

  /**
   * Whether this agent is the first to report the filter past a capacity level: KEYS counters; ARGV level (of the
   * filter, or of its fullest part when spread). The
   * agent that gets 1 logs the warning; the others do not. Run twice: answers 0, so that warning may go unlogged.
   */
  static final String FIRST_TO_WARN = """
      local current = tonumber(redis.call('HGET', KEYS[1], 'warned') or '0')
      if current < tonumber(ARGV[1]) then
        redis.call('HSET', KEYS[1], 'warned', ARGV[1])
        return 1
      end
      return 0
      """;

  /**
   * Counts one page of an origin unless its count has reached the limit, in a count-min sketch of u32 counters with
   * conservative update: KEYS budget; ARGV limit, then one counter index per row. Returns 1 if counted. Run twice:
   * the page is counted twice, so the origin's budget ends a page early.
   */
  static final String TAKE_BUDGET = """
      local limit = tonumber(ARGV[1])
      local values = {}
      local min = nil
      for i = 2, #ARGV do
        local v = redis.call('BITFIELD', KEYS[1], 'GET', 'u32', '#' .. ARGV[i])[1]
        values[i] = v
        if min == nil or v < min then min = v end
      end
      if min >= limit then return 0 end
      for i = 2, #ARGV do
        if values[i] == min then redis.call('BITFIELD', KEYS[1], 'SET', 'u32', '#' .. ARGV[i], min + 1) end
      end
      return 1
      """;

  /**
   * Publishes sites in scope: each new one joins the set of them and, once, the end of their log, which agents read
   * from where they left off rather than whole. KEYS scope set, scope log; ARGV sites. Returns the number added.
   * Run twice: the second run finds every site in the set and adds none.
   */
  static final String PUBLISH_SITES = """
      local added = 0
      for i = 1, #ARGV do
        if redis.call('SADD', KEYS[1], ARGV[i]) == 1 then
          redis.call('RPUSH', KEYS[2], ARGV[i])
          added = added + 1
        end
      end
      return added
      """;

  /**
   * Adds to the crawl's counters summed over agents: KEYS stats; ARGV field, delta, ... Run twice: the deltas count
   * twice, so the all-agents counters overstate by one flush's counts.
   */
  static final String ADD_COUNTERS = """
      for i = 1, #ARGV, 2 do redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1]) end
      return 0
      """;

  /**
   * Reads shards' hashes in one call, on one Redis where every shard has the crawl's tag: KEYS the shard hashes; ARGV
   * the fields. Returns each hash's values of the fields, one after the other. Run twice: reads again.
   */
  static final String READ_SHARDS = """
      local values = {}
      for i = 1, #KEYS do
        local read = redis.call('HMGET', KEYS[i], unpack(ARGV))
        for j = 1, #ARGV do values[#values + 1] = read[j] end
      end
      return values
      """;

  /**
   * Creates the crawl's meta hash unless it exists, and marks it as {@code seeding} (in its counters) until the agent
   * that started it has queued its seeds: KEYS meta, counters; ARGV field, value, ... Returns 1 if created. Runs at
   * the start only, where a failure ends the agent rather than being retried.
   */
  static final String CREATE = """
      if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
      redis.call('HSET', KEYS[1], unpack(ARGV))
      redis.call('HSET', KEYS[2], 'seeding', 1)
      return 1
      """;
}
