package io.sievecrawl.sieve.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Calls to several shards at once: each in a virtual thread of its own, so that their commands go out together on
 * the shared connection (one round trip of latency for all, however many slots and masters they reach), each riding
 * out an outage as {@link RedisCrawl#call} does. One call runs in the caller's thread.
 */
final class Fanout {
  private Fanout() {}

  /** The answers of {@code calls}, in their order; the first failure (in that order) is thrown once all ended. */
  static <R> List<R> all(List<? extends Supplier<R>> calls) {
    if (calls.size() == 1) {
      return List.of(calls.get(0).get());
    }
    List<Future<R>> futures = new ArrayList<>(calls.size());
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (Supplier<R> call : calls) {
        futures.add(threads.submit(call::get));
      }
    }
    List<R> answers = new ArrayList<>(calls.size());
    for (Future<R> future : futures) {
      try {
        answers.add(future.get());
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RuntimeException failure) {
          throw failure; // a FrontierFailure, say: as if the call had run here
        }
        if (e.getCause() instanceof Error error) {
          throw error;
        }
        throw new IllegalStateException(e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for Redis", e);
      }
    }
    return answers;
  }
}
