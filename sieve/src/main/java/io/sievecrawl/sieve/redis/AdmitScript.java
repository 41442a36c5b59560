package io.sievecrawl.sieve.redis;

/** The admission script of a shared crawl, the longest of its {@link Scripts}, apart. */
final class AdmitScript {
  private AdmitScript() {}

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
   * acknowledgement counts it done ({@link Scripts#ACK}): open is admitted less done. Exactly one of any number of
   * concurrent admissions of a URL is told 1: the script runs alone, and every key of one URL's admission is its
   * shard's. A chunk is made whole, all zeros, the first time a bit is set in it: grown piece by piece by SETRANGE,
   * Redis would allocate about twice the chunk's bytes.
   *
   * <p>Run twice: the second run finds every bit set (and, confirmed, the fingerprint in its bucket) and answers 0
   * for each task, so the caller takes the URLs the first run queued for duplicates, and {@code dropped} counts them
   * too; each was queued once. If the first run grew the part, the second answers {-1, layers} and the caller probes
   * again, finding them seen in the layer before.
   */
  static final String TEXT = """
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
      """.formatted(Scripts.LOST);
}
