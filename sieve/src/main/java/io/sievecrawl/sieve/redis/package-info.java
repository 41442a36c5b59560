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
 * {@code ShardLeases} (its share of the shards, by heartbeat) and {@code FlightRecovery} (claims nobody holds, put
 * back).
 *
 * <p>An agent reaches one Redis server or a Redis Cluster through {@link io.sievecrawl.sieve.redis.RedisLink}, which
 * tells them apart on connecting. Every key of one crawl carries the hash tag {@code {NAME}}, so each script touches
 * keys of one hash slot and runs on a cluster (which then spreads crawls over its nodes, not the keys of one crawl):
 *
 * <pre>
 * sievecrawl:{NAME}:meta        hash: format, version, n, p, seed, blocks, k, shards, settings, created
 * sievecrawl:{NAME}:counters    hash: bits (set in the filter), admitted, dropped, open (admitted, not done), open:S
 *                               (the same for shard S), warned
 * sievecrawl:{NAME}:f:C         string: filter chunk C, 1,024 blocks of 512 bits (the local filter's layout)
 * sievecrawl:{NAME}:o:ORIGIN    list: the origin's waiting tasks, oldest first
 * sievecrawl:{NAME}:line:S      list: shard S's origins waiting to be checked out (duplicates are harmless)
 * sievecrawl:{NAME}:origins:S   set: shard S's origins whose lists may hold tasks
 * sievecrawl:{NAME}:flight:S    hash: AGENT:N -> a task of shard S claimed and not yet acknowledged
 * sievecrawl:{NAME}:lease:S     the agent that owns shard S, with an expiry renewed by its heartbeat
 * sievecrawl:{NAME}:owners      hash: S -> the agent that last took shard S (which may renew its lapsed lease)
 * sievecrawl:{NAME}:agents      hash: agent id -> last heartbeat (ms)
 * sievecrawl:{NAME}:scope       set: the sites in scope (seeds', and those seed redirects brought in)
 * sievecrawl:{NAME}:stats       hash: crawl counters summed over agents (pages, bytes, status classes, ...)
 * sievecrawl:{NAME}:budget      string: per-origin page counts, a count-min sketch of u32 counters
 * sievecrawl:{NAME}:robots:ORIGIN string: the origin's robots.txt rules as an agent parsed them, with their expiry;
 *                               the key expires with them (24 h after the fetch)
 * </pre>
 */
package io.sievecrawl.sieve.redis;
