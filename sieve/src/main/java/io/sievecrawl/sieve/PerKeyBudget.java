package io.sievecrawl.sieve;

/**
 * A budget per key (a page budget per origin): counted in this process ({@link CountMinSketch}) or shared by the
 * agents of a crawl (in Redis).
 */
public interface PerKeyBudget {

  /** Counts one more for {@code key} unless its count has reached {@code limit}; returns whether it counted. */
  boolean tryCount(CharSequence key, long limit);
}
