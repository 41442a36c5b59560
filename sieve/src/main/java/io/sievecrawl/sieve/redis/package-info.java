/**
 * The shared frontier of several sievecrawl agents, in Redis: start with
 * {@link io.sievecrawl.sieve.redis.RedisCrawl} (connecting, creating or joining a named crawl) and
 * {@link io.sievecrawl.sieve.redis.RedisFrontier}.
 *
 * <p>Behind {@code RedisCrawl}: {@code RedisAddress} (the URI, checked, shown without its password, connected to),
 * {@code CrawlMeta} (the meta hash: format version, n, p, shards, settings), {@code CrawlKeys} (key names),
 * {@code Scripts} (the Lua scripts and why each is safe to send twice), {@code RedisCalls} (every command on the one
 * shared connection, {@code SharedConnection}, riding out an outage, {@code OutageRetry}) and {@code RedisFailures}
 * (a failure in one line). Behind {@code RedisFrontier}: {@code RedisAdmission} (offers), {@code ShardWork} (checking
 * origins out, claiming, acknowledging, putting back), {@code LocalClaims} (what this agent holds),
 * {@code ShardLeases} (its share of the shards, by heartbeat), {@code FlightRecovery} (claims nobody holds, put
 * back), {@code ShardCounts} (the shards' hashes read together: the crawl's counters, the end) and {@code Fanout}
 * (calls to several shards sent at once).
 *
 * <p>An agent reaches one Redis server or a Redis Cluster through {@link io.sievecrawl.sieve.redis.RedisLink}, which
 * tells them apart on connecting. Crawl-wide keys carry the hash tag {@code {NAME}}; a shard's keys carry its
 * shard's tag, {@code TAG} below: {@code NAME:S} in a crawl created on a cluster ("spread": its shards hash to
 * different slots, so they spread over the masters, and a script on one shard touches one slot), {@code NAME} on one
 * Redis. {@link io.sievecrawl.sieve.redis.ShardCounts} reads the shards' hashes together:
 *
 * <pre>
 * sievecrawl:{NAME}:meta        hash: format, version, n, p, seed, blocks and k (of one part of the filter), shards,
 *                               spread, confirm, bucketBits, settings, created
 * sievecrawl:{NAME}:counters    hash: seeding (until the seeds are queued), warned (the capacity level last warned
 *                               of), bits (set in the filter, on one Redis)
 * sievecrawl:{NAME}:agents      hash: agent id -> last heartbeat (ms)
 * sievecrawl:{NAME}:scope       set: the sites in scope (seeds', and those seed redirects brought in); scope-log: the
 *                               same as a list, in the order published
 * sievecrawl:{NAME}:stats       hash: crawl counters summed over agents (pages, bytes, status classes, ...)
 * sievecrawl:{TAG}:shard:S      hash: version, admitted, done (open = admitted - done), dropped and rescued (of the
 *                               batches whose first shard it was: only their sums mean anything), and when spread
 *                               layers (of the shard's part of the filter, 1 until it grows) and bits, bits:1, ...
 *                               (set in each layer), owner (the agent that last took the shard, which may renew its
 *                               lapsed lease), renewed (its holder's last renewal, "AGENT N": found older, the shard's
 *                               data went back); made with the crawl, gone = the shard's data lost
 * sievecrawl:{TAG}:budget       string: per-origin page counts of the shard's origins (of all on one Redis), a
 *                               count-min sketch of u32 counters, as wide as the shard's share of 131,072 columns
 * sievecrawl:{TAG}:robots:ORIGIN string: the origin's robots.txt rules as an agent parsed them, with their expiry;
 *                               the key expires with them (24 h after the fetch)
 * sievecrawl:{TAG}:o:ORIGIN     list: the origin's waiting tasks, oldest first
 * sievecrawl:{TAG}:line:S       list: shard S's origins waiting to be checked out (duplicates are harmless)
 * sievecrawl:{TAG}:origins:S    set: shard S's origins whose lists may hold tasks
 * sievecrawl:{TAG}:flight:S     hash: AGENT:N -> a task of shard S claimed and not yet acknowledged
 * sievecrawl:{TAG}:lease:S      the agent that owns shard S, with an expiry renewed by its heartbeat
 * sievecrawl:{TAG}:f:C          string: chunk C of the filter (of the first layer of the shard's part when spread),
 *                               1,023 blocks of 512 bits (the local filter's layout), the last chunk of a layer shorter
 * sievecrawl:{TAG}:f:L:C        string: chunk C of layer L of the shard's part, once it grew (PartLayers)
 * sievecrawl:{TAG}:x:B          set: bucket B of the exact store (of the first layer of the shard's part when spread),
 *                               fingerprints as integers
 * sievecrawl:{TAG}:x:L:B        set: bucket B of layer L's exact store, once the part grew
 * </pre>
 */
package io.sievecrawl.sieve.redis;
