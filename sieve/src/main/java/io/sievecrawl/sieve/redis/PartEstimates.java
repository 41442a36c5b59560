package io.sievecrawl.sieve.redis;

/**
 * The URLs each part of a spread crawl's filter holds, estimated from what this agent's admissions last read of it
 * (its layers, its newest layer's set bits), and their sum: the crawl's, which the capacity warning compares with n.
 * A part another agent fills is seen here when this agent next admits to it.
 */
final class PartEstimates {
  private final PartLayers layers;
  private final int[] partLayers; // guarded by this
  private final long[] newestBits; // guarded by this
  private final double[] estimates; // guarded by this
  private volatile double total;

  PartEstimates(PartLayers layers, int parts) {
    this.layers = layers;
    this.partLayers = new int[parts];
    this.newestBits = new long[parts];
    this.estimates = new double[parts];
    java.util.Arrays.fill(partLayers, 1);
  }

  /**
   * Part {@code part} has {@code layerCount} layers, the newest with {@code bits} set; a reply older than one seen
   * (fewer layers, or fewer bits in the same layer: scripts of several threads cross) changes nothing.
   */
  synchronized void update(int part, int layerCount, long bits) {
    if (layerCount < partLayers[part] || layerCount == partLayers[part] && bits < newestBits[part]) {
      return;
    }
    partLayers[part] = layerCount;
    newestBits[part] = bits;
    double estimate = layers.estimate(layerCount, bits);
    total += estimate - estimates[part];
    estimates[part] = estimate;
  }

  /** The URLs the parts hold, estimated. */
  double total() {
    return total;
  }
}
