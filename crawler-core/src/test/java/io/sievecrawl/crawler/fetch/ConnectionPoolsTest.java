package io.sievecrawl.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

class ConnectionPoolsTest {
  private static final long GB = 1L << 30;

  @Test
  void theBudgetIsASixteenthOfTheHeapAt64KbAConnection() {
    assertEquals(2_048, ConnectionPools.idleBudget(32, 2 * GB, 1_000_000));
  }

  @Test
  void theBudgetLeavesHalfTheFreeFileDescriptorsToTheRestOfTheCrawl() {
    assertEquals(500, ConnectionPools.idleBudget(32, 64 * GB, 1_000));
  }

  @Test
  void theBudgetIsNeverBelowTwiceTheConcurrencyNorAboveTwentyThousand() {
    assertEquals(64, ConnectionPools.idleBudget(32, 16 << 20, -1), "a tiny heap; descriptors unknown");
    assertEquals(8, ConnectionPools.idleBudget(1, 16 << 20, 4));
    assertEquals(20_000, ConnectionPools.idleBudget(32, 1_024 * GB, 10_000_000));
  }

  @Test
  void aConnectionIsKeptThirtySecondsLongerThanTwoPolitenessDelays() {
    assertEquals(Duration.ofSeconds(32), ConnectionPools.keepAlive(Duration.ofSeconds(1)));
    assertEquals(Duration.ofSeconds(30), ConnectionPools.keepAlive(Duration.ZERO));
  }

  @Test
  void anOriginAlwaysGoesToOneShardAndTheShardsShareAllButTheirPool() {
    OkHttpClient base = new OkHttpClient.Builder().followRedirects(false).build();
    ConnectionPools pools = ConnectionPools.of(base, 1_000, Duration.ofSeconds(30));
    assertEquals(16, pools.shardCount(), "at most 64 idle connections a shard");
    Set<OkHttpClient> used = new HashSet<>();
    for (int i = 0; i < 2_000; i++) {
      HttpUrl page = HttpUrl.get("https://site-" + i + ".example/a/" + i + ".html");
      OkHttpClient client = pools.clientFor(page);
      assertSame(client, pools.clientFor(HttpUrl.get("https://site-" + i + ".example/robots.txt")), "same origin");
      assertSame(base.dispatcher(), client.dispatcher());
      assertTrue(!client.followRedirects());
      used.add(client);
    }
    assertEquals(16, used.size(), "origins spread over every shard");
    assertNotSame(pools.clientFor(HttpUrl.get("http://a.example/")).connectionPool(), base.connectionPool());
  }

  @Test
  void refusesAnEmptyBudgetOrNoKeepAlive() {
    OkHttpClient base = new OkHttpClient();
    assertThrows(IllegalArgumentException.class, () -> ConnectionPools.of(base, 0, Duration.ofSeconds(1)));
    assertThrows(IllegalArgumentException.class, () -> ConnectionPools.of(base, 10, Duration.ZERO));
  }
}
