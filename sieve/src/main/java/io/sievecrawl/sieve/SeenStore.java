package io.sievecrawl.sieve;

/**
 * The exact layer behind a frontier's Bloom filter: the 64-bit fingerprint of every URL admitted. It settles the
 * filter's "maybe seen" answers, so that a URL the filter wrongly takes for seen is admitted after all.
 *
 * <p>A store may keep part of its fingerprints <em>settled</em> (frozen, say written to disk at a checkpoint) and
 * the rest <em>recent</em>. {@link Admission} asks {@link #containsSettled} first and then makes
 * {@link #addRecent} the single point where racing offers of one URL meet: exactly one of them adds it.
 */
public interface SeenStore {
  /** Whether {@code fingerprint} is among the settled fingerprints. Never changes while an admission runs. */
  boolean containsSettled(long fingerprint);

  /** Adds {@code fingerprint} to the recent ones; returns whether it was absent there. Atomic. */
  boolean addRecent(long fingerprint);

  /** A store of the heap alone: everything recent, nothing ever settled. */
  static SeenStore inMemory() {
    StripedFingerprintSet all = new StripedFingerprintSet();
    return new SeenStore() {
      @Override
      public boolean containsSettled(long fingerprint) {
        return false;
      }

      @Override
      public boolean addRecent(long fingerprint) {
        return all.add(fingerprint);
      }
    };
  }
}
