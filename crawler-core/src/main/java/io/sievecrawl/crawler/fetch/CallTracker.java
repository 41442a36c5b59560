package io.sievecrawl.crawler.fetch;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.Call;

/**
 * The HTTP calls under way, so that a stop can really cancel them. OkHttp's dispatcher forgets a synchronous call
 * as soon as {@code execute()} returns its response, so {@code dispatcher().cancelAll()} cannot cut off a body still
 * being read; a call tracked here can be cancelled until its body is closed.
 */
public final class CallTracker {
  private final Set<Call> active = ConcurrentHashMap.newKeySet();
  private volatile boolean cancelled;

  /** A handle that stops tracking the call when closed (after its body is read). */
  public interface Tracked extends AutoCloseable {
    @Override
    void close();
  }

  /** Tracks {@code call} until the returned handle is closed; cancels it at once after {@link #cancelAll()}. */
  public Tracked track(Call call) {
    active.add(call);
    if (cancelled) {
      call.cancel();
    }
    return () -> active.remove(call);
  }

  /** Cancels every tracked call, and every call tracked from now on: their reads fail with an IOException. */
  public void cancelAll() {
    cancelled = true;
    active.forEach(Call::cancel);
  }
}
