package io.sievecrawl.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.ConnectionPool;
import okhttp3.ConnectionSpec;
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

  /**
   * The https clients are made once, by the first request to an https origin, however many workers ask at once, and
   * on the cleartext clients' pools: what connectionCount and evictAll see.
   */
  @Test
  void theHttpsClientsAreMadeOnceOnTheFirstHttpsOriginAndShareTheShardsPools() throws Exception {
    OkHttpClient cleartext = new OkHttpClient.Builder().connectionSpecs(List.of(ConnectionSpec.CLEARTEXT)).build();
    AtomicInteger made = new AtomicInteger();
    ConnectionPools pools = ConnectionPools.of(cleartext, () -> {
      made.incrementAndGet();
      return cleartext.newBuilder().connectionSpecs(List.of(ConnectionSpec.MODERN_TLS)).build();
    }, 1_000, Duration.ofSeconds(30));
    Set<ConnectionPool> shardPools = new HashSet<>();
    for (int i = 0; i < 2_000; i++) {
      shardPools.add(pools.clientFor(HttpUrl.get("http://site-" + i + ".example/")).connectionPool());
      assertNull(pools.bareClientFor(HttpUrl.get("http://site-" + i + ".example/")).x509TrustManager());
    }
    assertEquals(0, made.get(), "no TLS for http origins");

    int workers = 8;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService executor = Executors.newFixedThreadPool(workers);
    try {
      List<Future<OkHttpClient>> first = new ArrayList<>();
      for (int w = 0; w < workers; w++) {
        HttpUrl url = HttpUrl.get("https://site-" + w + ".example/");
        first.add(executor.submit(() -> {
          start.await();
          return pools.clientFor(url);
        }));
      }
      start.countDown();
      for (Future<OkHttpClient> client : first) {
        assertNotNull(client.get(30, TimeUnit.SECONDS).x509TrustManager());
      }
    } finally {
      executor.shutdownNow();
    }
    for (int i = 0; i < 2_000; i++) {
      HttpUrl page = HttpUrl.get("https://site-" + i + ".example/");
      assertTrue(shardPools.contains(pools.clientFor(page).connectionPool()), "a cleartext shard's pool");
      assertTrue(shardPools.contains(pools.bareClientFor(page).connectionPool()));
      assertNotNull(pools.bareClientFor(page).x509TrustManager());
    }
    assertEquals(1, made.get(), "made once");
  }

  @Test
  void httpsClientsThatCannotBeMadeAreNotTriedAgainAndEveryHttpsRequestGetsTheSameError() {
    OkHttpClient cleartext = new OkHttpClient.Builder().connectionSpecs(List.of(ConnectionSpec.CLEARTEXT)).build();
    AtomicInteger tried = new AtomicInteger();
    ConnectionPools pools = ConnectionPools.of(cleartext, () -> {
      tried.incrementAndGet();
      throw new IllegalStateException("the trust store cannot be read");
    }, 1_000, Duration.ofSeconds(30));
    IllegalStateException first = assertThrows(IllegalStateException.class,
        () -> pools.clientFor(HttpUrl.get("https://a.example/")));
    IllegalStateException second = assertThrows(IllegalStateException.class,
        () -> pools.bareClientFor(HttpUrl.get("https://b.example/")));
    assertSame(first, second);
    assertEquals(1, tried.get(), "tried once");
    assertNotNull(pools.clientFor(HttpUrl.get("http://a.example/")), "http is unaffected");
  }

  /** Sites named alike share a shard's budget about evenly: none holds twice its share. */
  @Test
  void sitesNamedAlikeSpreadEvenlyOverTheShards() {
    int[] load = new int[32];
    for (int i = 0; i < 3_200; i++) {
      load[ConnectionPools.shardOf(HttpUrl.get("http://h" + i + ".example/"), load.length)]++;
      load[ConnectionPools.shardOf(HttpUrl.get("https://www.site" + i + ".example:8443/"), load.length)]++;
    }
    // 200 a shard on average; a binomial's standard deviation is about 14, so 5 of them either side.
    for (int n : load) {
      assertTrue(n >= 130 && n <= 270, () -> java.util.Arrays.toString(load));
    }
  }

  /**
   * The upkeep is never woken by a call handing its connection back: it looks on its own, at most a second late, and
   * then closes what was idle past the keep-alive.
   */
  @Test
  void connectionsIdlePastTheKeepAliveAreClosedBySelfTimedUpkeep() throws Exception {
    try (io.sievecrawl.crawler.bench.SyntheticSite site = io.sievecrawl.crawler.bench.SyntheticSite.start(3, 1)) {
      OkHttpClient base = new OkHttpClient.Builder().build();
      ConnectionPools pools = ConnectionPools.of(base, 100, Duration.ofMillis(300));
      try {
        for (int page = 0; page < 3; page++) {
          HttpUrl url = HttpUrl.get(site.url(page));
          try (okhttp3.Response response = pools.clientFor(url).newCall(new okhttp3.Request.Builder().url(url)
              .build()).execute()) {
            response.body().bytes();
          }
        }
        assertEquals(1, pools.connectionCount(), "one origin, one connection kept for its three pages");
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (pools.connectionCount() > 0 && System.nanoTime() < deadline) {
          Thread.sleep(50); // polling for an effect that has no event to wait on; the bound is generous
        }
        assertEquals(0, pools.connectionCount(), "closed after its keep-alive");
      } finally {
        pools.close();
      }
    }
  }

  @Test
  void refusesAnEmptyBudgetOrNoKeepAlive() {
    OkHttpClient base = new OkHttpClient();
    assertThrows(IllegalArgumentException.class, () -> ConnectionPools.of(base, 0, Duration.ofSeconds(1)));
    assertThrows(IllegalArgumentException.class, () -> ConnectionPools.of(base, 10, Duration.ZERO));
  }
}
