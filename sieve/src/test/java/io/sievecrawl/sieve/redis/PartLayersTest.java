package io.sievecrawl.sieve.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.sieve.BloomSizing;
import org.junit.jupiter.api.Test;

class PartLayersTest {
  @Test
  void eachLayerIsTwiceAsLargeAtHalfTheRateAndTheRatesSumUnderP() {
    PartLayers layers = new PartLayers(15_625, 0.001);
    assertEquals(PartLayers.MAX_LAYERS, layers.maxLayers());
    double sum = 0;
    for (int i = 0; i < layers.maxLayers(); i++) {
      BloomSizing sizing = layers.sizing(i);
      assertEquals(15_625L << i, sizing.expectedInsertions(), "layer " + i);
      assertEquals(0.0005 / (1L << i), sizing.targetFpp(), 1e-15, "layer " + i);
      // the blocked layout keeps each layer's rate at its capacity under its target
      assertTrue(sizing.expectedFppAt(sizing.expectedInsertions()) <= sizing.targetFpp(), "layer " + i);
      sum += sizing.targetFpp();
    }
    assertTrue(sum < 0.001, "the layers' rates sum under p: " + sum);
    assertEquals(15_625 + 31_250 + 62_500, layers.capacityOf(3));
    // more probes as the rate falls: k grows by one a layer, about
    assertEquals(BloomSizing.classicalHashCount(0.0005), layers.sizing(0).hashCount());
    assertEquals(BloomSizing.classicalHashCount(0.0005 / 1024), layers.sizing(10).hashCount());
  }

  @Test
  void aLayerGrowsWhenItsEstimateReachesItsCapacityAndTheLastNever() {
    PartLayers layers = new PartLayers(100, 0.01);
    for (int i = 0; i + 1 < layers.maxLayers(); i++) {
      BloomSizing sizing = layers.sizing(i);
      long growAt = layers.growAtBits(i);
      assertTrue(sizing.estimateElements(growAt) >= sizing.expectedInsertions(), "layer " + i);
      assertTrue(sizing.estimateElements(growAt - 1) < sizing.expectedInsertions(), "layer " + i);
    }
    assertEquals(0, layers.growAtBits(layers.maxLayers() - 1), "the last layer never grows");
    // full layers count at their capacity, the newest by its bits
    assertEquals(100 + 200, layers.estimate(3, 0), 1e-9);
    BloomSizing third = layers.sizing(2);
    assertEquals(300 + third.estimateElements(1_000), layers.estimate(3, 1_000), 1e-9);
  }

  @Test
  void aPartStopsGrowingAtTheLargestLayerOneFilterCanBe() {
    PartLayers layers = new PartLayers(1L << 32, 0.01); // layer 3 would pass BloomSizing.MAX_BLOCKS
    assertEquals(2, layers.maxLayers());
    assertEquals(0, layers.growAtBits(layers.maxLayers() - 1));
  }

  @Test
  void layersHaveSeedsAndKeysOfTheirOwnTheFirstThoseOfAPartThatNeverGrew() {
    assertEquals(7, PartLayers.seed(7, 0));
    assertNotEquals(PartLayers.seed(7, 1), PartLayers.seed(7, 2));
    assertEquals("bits", PartLayers.bitsField(0));
    assertEquals("bits:3", PartLayers.bitsField(3));
    CrawlKeys keys = new CrawlKeys("c", true, 64);
    assertEquals("sievecrawl:{c:5}:f:12", keys.chunk(5, 0, 12));
    assertEquals("sievecrawl:{c:5}:f:2:12", keys.chunk(5, 2, 12));
    assertEquals("sievecrawl:{c:5}:x:9", keys.bucket(5, 0, 9));
    assertEquals("sievecrawl:{c:5}:x:2:9", keys.bucket(5, 2, 9));
    // each layer's buckets keep about 128 fingerprints at its capacity
    PartLayers layers = new PartLayers(15_625, 0.001);
    assertEquals(layers.bucketBits(0) + 3, layers.bucketBits(3));
  }
}
