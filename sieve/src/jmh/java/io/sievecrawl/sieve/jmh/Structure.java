package io.sievecrawl.sieve.jmh;

import com.google.common.hash.Funnels;
import io.sievecrawl.sieve.BloomFilter;
import io.sievecrawl.sieve.BloomFilterFile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The competitors of the sieve benchmarks, each behind the same two-method {@link Target}: "seen" sets of URLs for
 * {@code n} expected elements at false-positive rate {@code p}.
 *
 * <p>Every JMH fork measures exactly one constant, so the {@link Target} call sites in the measured loops see one
 * implementation and are inlined.
 */
public enum Structure {
  /** {@link io.sievecrawl.sieve.BloomFilter}: {@code add} / {@code mightContain}. */
  SIEVE {
    @Override
    public Target create(long n, double p) {
      return new SieveTarget(BloomFilter.create(n, p));
    }
  },
  /**
   * Guava's {@code BloomFilter<CharSequence>} over {@code Funnels.stringFunnel(UTF_8)}: {@code put} /
   * {@code mightContain}.
   */
  GUAVA {
    @Override
    public Target create(long n, double p) {
      return new GuavaTarget(com.google.common.hash.BloomFilter.create(
          Funnels.stringFunnel(StandardCharsets.UTF_8), n, p));
    }
  },
  /** {@code ConcurrentHashMap.newKeySet()}: {@code add} / {@code contains}; exact, keeps the strings. */
  HASH_SET {
    @Override
    public Target create(long n, double p) {
      return new SetTarget(ConcurrentHashMap.newKeySet());
    }
  };

  /** A new, empty structure sized for {@code n} elements at false-positive rate {@code p} (ignored by the set). */
  public abstract Target create(long n, double p);

  /** What the benchmarks call. */
  public interface Target {
    /** Adds {@code url}; {@code true} if this call made it present (the competitor's own notion, see each). */
    boolean add(CharSequence url);

    /** Whether {@code url} is (or, for a filter, might be) present. */
    boolean contains(String url);

    /**
     * An independent copy in the current state, for restoring a pre-filled state cheaply; {@code null} when the
     * structure has no cheap copy (the hash set: undo its adds instead).
     */
    Target copy();

    /** Removes {@code url} if the structure supports removal (the hash set); filters throw. */
    default void remove(String url) {
      throw new UnsupportedOperationException("a Bloom filter cannot remove");
    }

    /** The underlying object, for footprint measurements. */
    Object unwrap();
  }

  static final class SieveTarget implements Target {
    private final BloomFilter filter;

    SieveTarget(BloomFilter filter) {
      this.filter = filter;
    }

    @Override
    public boolean add(CharSequence url) {
      return filter.add(url);
    }

    @Override
    public boolean contains(String url) {
      return filter.mightContain(url);
    }

    @Override
    public Target copy() {
      // The public API has no copy; a round trip through the file form is one (12 MB at n = 10M, p = 1%).
      try {
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) (filter.bitSize() / 8) + 1024);
        BloomFilterFile.write(filter, out);
        return new SieveTarget(BloomFilterFile.read(new ByteArrayInputStream(out.toByteArray())));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public Object unwrap() {
      return filter;
    }
  }

  static final class GuavaTarget implements Target {
    private final com.google.common.hash.BloomFilter<CharSequence> filter;

    GuavaTarget(com.google.common.hash.BloomFilter<CharSequence> filter) {
      this.filter = filter;
    }

    @Override
    public boolean add(CharSequence url) {
      return filter.put(url); // true if some bit changed: not an atomic test-and-set across threads
    }

    @Override
    public boolean contains(String url) {
      return filter.mightContain(url);
    }

    @Override
    public Target copy() {
      return new GuavaTarget(filter.copy());
    }

    @Override
    public Object unwrap() {
      return filter;
    }
  }

  static final class SetTarget implements Target {
    private final Set<String> set;

    SetTarget(Set<String> set) {
      this.set = set;
    }

    @Override
    public boolean add(CharSequence url) {
      return set.add(url.toString()); // a set must keep its own String: free for a String, a copy otherwise
    }

    @Override
    public boolean contains(String url) {
      return set.contains(url);
    }

    @Override
    public Target copy() {
      return null;
    }

    @Override
    public void remove(String url) {
      set.remove(url);
    }

    @Override
    public Object unwrap() {
      return set;
    }
  }
}
