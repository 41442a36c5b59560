package io.sievecrawl.sieve.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which views of a cluster's topology are offered to Lettuce's choice: those that know the newest configuration. */
class NewestViewTest {
  private static Partitions view(long... epochs) {
    Partitions view = new Partitions();
    for (int i = 0; i < epochs.length; i++) {
      RedisClusterNode node = new RedisClusterNode();
      node.setNodeId("n" + i);
      node.setUri(RedisURI.create("redis://127.0.0.1:" + (7000 + i)));
      node.setConfigEpoch(epochs[i]);
      view.add(node);
    }
    return view;
  }

  @Test
  void aViewThatHasNotHeardOfTheReplicaTakingOverIsLeftOut() {
    Map<RedisURI, Partitions> views = new LinkedHashMap<>();
    RedisURI stale = RedisURI.create("redis://127.0.0.1:7004");
    RedisURI informed = RedisURI.create("redis://127.0.0.1:7005");
    RedisURI alsoInformed = RedisURI.create("redis://127.0.0.1:7001");
    views.put(stale, view(1, 2, 3)); // the dead master still serves its slots here
    views.put(informed, view(1, 2, 3, 4)); // its replica took over with epoch 4
    views.put(alsoInformed, view(4, 1, 2));
    assertEquals(List.of(informed, alsoInformed), List.copyOf(RedisLink.newest(views).keySet()));
  }

  @Test
  void viewsThatAgreeAreAllKept() {
    Map<RedisURI, Partitions> views = new LinkedHashMap<>();
    views.put(RedisURI.create("redis://127.0.0.1:7000"), view(1, 2, 3));
    views.put(RedisURI.create("redis://127.0.0.1:7001"), view(3, 2, 1));
    assertEquals(views, RedisLink.newest(views));
    assertEquals(Map.of(), RedisLink.newest(Map.of()));
  }
}
