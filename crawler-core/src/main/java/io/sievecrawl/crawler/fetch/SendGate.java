package io.sievecrawl.crawler.fetch;

import java.io.InterruptedIOException;
import okhttp3.Interceptor;

/**
 * What decides, as a request is about to go on the wire (its connection made, not a byte written), whether it may
 * go now. A fetch given one ({@link PageFetcher#fetch(io.sievecrawl.crawler.url.Url, boolean, boolean, Revalidation,
 * SendGate)}) asks it before each attempt on the wire; a refusal ends the fetch with nothing sent, and the gate keeps
 * why.
 *
 * <p>Asked this late, a check that the crawl may still use the origin leaves no connection time between the check
 * and the request, and a politeness delay counts from when the request really goes.
 */
@FunctionalInterface
public interface SendGate {
  /** @throws NotSent when the request may not go now */
  void beforeSend() throws NotSent;

  /**
   * A request its gate refused: nothing of it was sent. An {@link InterruptedIOException} (and not a timeout), which
   * OkHttp does not try again on another connection.
   */
  final class NotSent extends InterruptedIOException {
    private static final long serialVersionUID = 1L;

    public NotSent(String why) {
      super(why);
    }
  }

  /** The network interceptor that asks a request's gate (its tag), placed before any that records the exchange. */
  Interceptor INTERCEPTOR = chain -> {
    SendGate gate = chain.request().tag(SendGate.class);
    if (gate != null) {
      gate.beforeSend();
    }
    return chain.proceed(chain.request());
  };
}
