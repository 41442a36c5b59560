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
   * Admits a batch of tasks. A task is seen if some layer of its part of the filter holds all its bits (the one
   * filter on one Redis has one layer; a part of a spread crawl may have grown more, {@link PartLayers}) and, in a
   * confirmed crawl, that layer's bucket of the exact store (a SET of integers) holds its fingerprint; otherwise it
   * is admitted: its bits are set in the newest layer (its 64-byte block read and written whole: two calls rather than
   * 2k), its fingerprint added to the newest layer's bucket when confirmed, and the task appended to its origin's
   * list; an origin whose list was empty joins the back of its shard's line and its shard's set of origins. A task
   * the filter took for seen and the store did not is counted rescued.
   *
   * <p>KEYS: a shard hash of the batch (gone: the crawl's data is lost; in a spread crawl the shard's, which holds
   * its part's layer count), the hash counting the filter's set bits (the crawl's counters, or when spread the
   * shard's hash), then the keys the entries name. ARGV: count, confirmed (1 or 0), the layers the caller probed (0
   * on one Redis: one, unchecked), the set bits of the newest layer at which the part grows a layer (0: never), the
   * field counting the newest layer's bits, then per task: origin list, line, origin set and shard hash key indexes,
   * the encoded task, the origin, when confirmed the fingerprint as a signed decimal string (never turned into a Lua
   * number: those are doubles), then per layer, newest first: chunk key index, the block's byte offset in the chunk,
   * the chunk's length (a part's last chunk is short), k, k bit indexes in the block (0 to 511), and when confirmed
   * the bucket key index. Returns the newest layer's set-bit total, the number of origins lined up, the part's new
   * layer count if this batch grew it (else 0), then 1 (admitted) or 0 (seen) per task; or {-1, layers} without
   * doing anything when the part has another number of layers than the caller probed (it grew meanwhile).
   *
   * <p>Each shard hash counts its tasks admitted (one HINCRBY a shard a batch: the end check needs it per shard,
   * {@link ShardCounts} note 1); the batch's dropped and rescued, only ever summed, go to KEYS[1]. A task's
   * acknowledgement counts it done ({@link #ACK}): open is admitted less done. Exactly one of any number of
   * concurrent admissions of a URL is told 1: the script runs alone, and every key of one URL's admission is its
   * shard's. A chunk is made whole, all zeros, the first time a bit is set in it: grown piece by piece by SETRANGE,
   * Redis would allocate about twice the chunk's bytes.
   *
   * <p>Run twice: the second run finds every bit set (and, confirmed, the fingerprint in its bucket) and answers 0
   * for each task, so the caller takes the URLs the first run queued for duplicates, and {@code dropped} counts them
   * too; each was queued once. If the first run grew the part, the second answers {-1, layers} and the caller probes
   * again, finding them seen in the layer before.
   */
  static final String ADMIT = """
      if redis.call('EXISTS', KEYS[1]) == 0 then return redis.error_reply('%s') end
      local n = tonumber(ARGV[1])
      local confirmed = ARGV[2] == '1'
      local layers = tonumber(ARGV[3])
      if layers > 0 then
        local actual = tonumber(redis.call('HGET', KEYS[1], 'layers') or '1')
        if actual ~= layers then return {-1, actual} end
      else
        layers = 1
      end
      local growAt = tonumber(ARGV[4])
      local pos = 6
      local result = {0, 0, 0}
      local flippedTotal, linedUp, dropped, rescued = 0, 0, 0, 0
      local counts = {}
      for i = 1, n do
        local list = KEYS[tonumber(ARGV[pos])]
        local line = KEYS[tonumber(ARGV[pos + 1])]
        local origins = KEYS[tonumber(ARGV[pos + 2])]
        local shard = KEYS[tonumber(ARGV[pos + 3])]
        local task, origin = ARGV[pos + 4], ARGV[pos + 5]
        pos = pos + 6
        local fingerprint
        if confirmed then
          fingerprint = ARGV[pos]
          pos = pos + 1
        end
        local seen, maybe = false, false
        local chunk, offset, chunkBytes, block, bytes, bucket
        local flipped = 0
        for layer = 1, layers do
          local layerChunk = KEYS[tonumber(ARGV[pos])]
          local layerOffset = tonumber(ARGV[pos + 1])
          local layerBytes = tonumber(ARGV[pos + 2])
          local k = tonumber(ARGV[pos + 3])
          local first = pos + 4
          pos = first + k
          local layerBucket
          if confirmed then
            layerBucket = KEYS[tonumber(ARGV[pos])]
            pos = pos + 1
          end
          if layer == 1 then -- the newest: its block is kept, with the task's bits set, for an admission
            chunk, offset, chunkBytes, bucket = layerChunk, layerOffset, layerBytes, layerBucket
            block = redis.call('GETRANGE', chunk, offset, offset + 63)
            bytes = {string.byte(block, 1, -1)}
            for b = #bytes + 1, 64 do bytes[b] = 0 end
            for j = first, first + k - 1 do
              local bitIndex = tonumber(ARGV[j])
              local at = math.floor(bitIndex / 8) + 1
              local mask = bit.lshift(1, bitIndex %% 8)
              if bit.band(bytes[at], mask) == 0 then
                bytes[at] = bit.bor(bytes[at], mask)
                flipped = flipped + 1
              end
            end
            if flipped == 0 then
              maybe = true
              seen = not confirmed or redis.call('SISMEMBER', layerBucket, fingerprint) == 1
            end
          elseif not seen then
            local old = redis.call('GETRANGE', layerChunk, layerOffset, layerOffset + 63)
            local all = #old > 0
            for j = first, first + k - 1 do
              if not all then break end
              local bitIndex = tonumber(ARGV[j])
              local byte = string.byte(old, math.floor(bitIndex / 8) + 1)
              all = bit.band(byte, bit.lshift(1, bitIndex %% 8)) ~= 0
            end
            if all then
              maybe = true
              seen = not confirmed or redis.call('SISMEMBER', layerBucket, fingerprint) == 1
            end
          end
        end
        if seen then
          result[i + 3] = 0
          dropped = dropped + 1
        else
          if maybe then rescued = rescued + 1 end
          if flipped > 0 then
            if #block == 0 and redis.call('EXISTS', chunk) == 0 then
              redis.call('SET', chunk, string.rep('\\0', chunkBytes))
            end
            redis.call('SETRANGE', chunk, offset, string.char(unpack(bytes)))
            flippedTotal = flippedTotal + flipped
          end
          if confirmed then redis.call('SADD', bucket, fingerprint) end
          if redis.call('RPUSH', list, task) == 1 then
            redis.call('RPUSH', line, origin)
            redis.call('SADD', origins, origin)
            linedUp = linedUp + 1
          end
          result[i + 3] = 1
          counts[shard] = (counts[shard] or 0) + 1
        end
      end
      for shard, admitted in pairs(counts) do redis.call('HINCRBY', shard, 'admitted', admitted) end
      if dropped > 0 then redis.call('HINCRBY', KEYS[1], 'dropped', dropped) end
      if rescued > 0 then redis.call('HINCRBY', KEYS[1], 'rescued', rescued) end
      local bits = redis.call('HINCRBY', KEYS[2], ARGV[5], flippedTotal)
      result[1] = bits
      result[2] = linedUp
      if growAt > 0 and bits >= growAt then
        redis.call('HSET', KEYS[1], 'layers', layers + 1)
        result[3] = layers + 1
      end
      return result
      """.formatted(LOST);

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
