package io.sievecrawl.crawler.fetch;

import java.net.InetSocketAddress;
import java.net.Proxy;
import java.util.concurrent.atomic.LongAdder;
import okhttp3.Call;
import okhttp3.Handshake;
import okhttp3.EventListener;

/** Counts the connections the crawl opens and the TLS handshakes they take: what keeping connections saves. */
final class ConnectionEvents extends EventListener {
  private final LongAdder opened = new LongAdder();
  private final LongAdder handshakes = new LongAdder();

  @Override
  public void connectStart(Call call, InetSocketAddress address, Proxy proxy) {
    opened.increment();
  }

  @Override
  public void secureConnectEnd(Call call, Handshake handshake) {
    handshakes.increment();
  }

  /** Connections opened so far (attempts to connect, failed ones included). */
  long opened() {
    return opened.sum();
  }

  /** TLS handshakes completed so far. */
  long handshakes() {
    return handshakes.sum();
  }
}
