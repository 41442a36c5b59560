package io.sievecrawl.sieve.redis;

import io.sievecrawl.sieve.BloomSizing;
import java.util.ArrayList;
import java.util.List;

/**
 * The layers of one part of a spread crawl's filter: a scalable Bloom filter (Almeida, Baquero, Preguiça and Hutchison,
 * 2007). A part starts with one layer sized for its share of the crawl, n / shards; when the newest layer's estimate
 * (from its set bits) reaches its capacity, a layer is added in the part's own slot, {@value #GROWTH} times as large
 * and with a false-positive rate {@value #TIGHTENING} times as low. A URL is seen if any layer holds all its bits; a
 * new one goes into the newest layer. The rates p_i = p0 r^i with p0 = p (1 - r) sum to at most p, so a part that
 * grew answers "maybe seen" for a new URL no more often than p, however many layers it has.
 */
final class PartLayers {
  /*
   * Design notes.
   *
   * 1. Why layers rather than one larger part: a URL's bits must stay where they were set (the part is in Redis, its
   *    URLs are not kept anywhere to be hashed again), and every admission stays one script in the part's slot. A
   *    new layer is only new keys in that slot.
   * 2. Layer 0 keeps the keys of a part that never grows ({@code f:C}, {@code x:B}), so an even crawl's keys are as
   *    they were; layer i's are {@code f:i:C} and {@code x:i:B}. Each layer has its own seed, so that its block for a
   *    URL is not its block in the layer before times two (the block is the hash's high bits times the blocks).
   * 3. The exact store grows with the filter: each layer has buckets of its own, as many as keep about 128
   *    fingerprints a bucket at the layer's capacity, so a bucket stays a compact intset (512 at most) in a part
   *    that one origin fills; with one set of buckets per part they grew past it and the store cost five times more.
   * 4. A part stops growing after {@value #MAX_LAYERS} layers (65,535 times its first capacity) or at the largest
   *    layer one filter can be: its newest layer then fills past its capacity, as an unlayered filter does.
   */
  /** How much larger each layer is than the one before. */
  static final int GROWTH = 2;
  /** How much lower each layer's false-positive rate is than the one before (r). */
  static final double TIGHTENING = 0.5;
  /** Layers a part may have at most. */
  static final int MAX_LAYERS = 16;
  private static final long SEED_STEP = 0x9E3779B97F4A7C15L;

  private final List<BloomSizing> sizings;

  /** The layers of a part sized for {@code partN} URLs, of a filter at false-positive rate {@code p}. */
  PartLayers(long partN, double p) {
    List<BloomSizing> layers = new ArrayList<>();
    double fpp = firstLayerFpp(p);
    layers.add(BloomSizing.of(partN, fpp));
    long capacity = partN;
    while (layers.size() < MAX_LAYERS) {
      if (capacity > Long.MAX_VALUE / GROWTH) {
        break;
      }
      capacity *= GROWTH;
      fpp *= TIGHTENING;
      try {
        layers.add(BloomSizing.of(capacity, Math.max(BloomSizing.MIN_FPP, fpp)));
      } catch (IllegalArgumentException tooLarge) {
        break; // note 4
      }
    }
    this.sizings = List.copyOf(layers);
  }

  /** The first layer's rate p0 = p (1 - r): the layers' rates then sum to at most p. */
  static double firstLayerFpp(double p) {
    return p * (1 - TIGHTENING);
  }

  /** The most layers the part can have. */
  int maxLayers() {
    return sizings.size();
  }

  /** The sizing of layer {@code layer} (0 the first). */
  BloomSizing sizing(int layer) {
    return sizings.get(layer);
  }

  /** The URLs layer {@code layer} is sized for: the part's first capacity times {@value #GROWTH}^layer. */
  long capacity(int layer) {
    return sizing(layer).expectedInsertions();
  }

  /** The URLs a part of {@code layers} layers is sized for: its layers' capacities summed. */
  long capacityOf(int layers) {
    long sum = 0;
    for (int i = 0; i < layers; i++) {
      sum += capacity(i);
    }
    return sum;
  }

  /**
   * The set bits of layer {@code layer} at which its estimate reaches its capacity, when the part grows a layer; 0
   * for the last layer a part may have (it never grows past it).
   */
  long growAtBits(int layer) {
    if (layer + 1 >= maxLayers()) {
      return 0;
    }
    BloomSizing sizing = sizing(layer);
    double m = sizing.bits();
    // The inverse of s = -(m/k) ln(1 - X/m) at s = the capacity, rounded up: the estimate is at capacity from there.
    return (long) Math.ceil(-m * Math.expm1(-(double) sizing.hashCount() * sizing.expectedInsertions() / m));
  }

  /**
   * The URLs a part of {@code layers} layers holds, estimated: its full layers at their capacity (each grew at it,
   * give or take the URLs of the batch that filled it), its newest from {@code newestBits}.
   */
  double estimate(int layers, long newestBits) {
    BloomSizing newest = sizing(layers - 1);
    double inNewest = newest.estimateElements(Math.min(newestBits, newest.bits() - 1));
    return capacityOf(layers - 1) + inNewest;
  }

  /** The filter's seed for layer {@code layer}: the crawl's for the first (note 2). */
  static long seed(long seed, int layer) {
    return seed + layer * SEED_STEP;
  }

  /** The field of the part's hash counting layer {@code layer}'s set bits: the first layer's is {@code bits}. */
  static String bitsField(int layer) {
    return layer == 0 ? "bits" : "bits:" + layer;
  }

  /** The exact store's bucket bits of layer {@code layer}: about 128 fingerprints a bucket at its capacity. */
  int bucketBits(int layer) {
    return CrawlMeta.bucketBits(capacity(layer));
  }
}
