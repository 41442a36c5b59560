package io.sievecrawl.crawler.fetch;

import java.io.IOException;
import okhttp3.Connection;
import okhttp3.Interceptor;
import okhttp3.Protocol;
import okhttp3.Response;

/**
 * The network interceptor that lets an HTTP/1 exchange read its socket without the socket's own read timeout: the
 * same read timeout (fetch.read-timeout) is kept by OkHttp's timeout on the connection's source, which covers every
 * read of the exchange, head and body.
 */
final class UntimedReads implements Interceptor {
  /*
   * Why. A virtual thread that reads a socket with a read timeout (SO_TIMEOUT) and finds no data parks with a
   * timeout: its pool's delay scheduler gets a timer task, and a second request to cancel it when the data comes,
   * each handed to the scheduler's own thread, which is woken for it. A crawl's worker parks so once or more a page:
   * over the 100,000-page javadoc the delay scheduler's thread and the handing over took about 5% of the crawl's CPU.
   * An untimed read parks without a timer.
   *
   * Why no timeout is lost. OkHttp gives each HTTP/1 exchange both: SO_TIMEOUT and, on the okio source every read of
   * the exchange goes through, an AsyncTimeout of the same length, armed for each read and enforced by one watchdog
   * thread that closes the socket when a read has waited too long; the read then fails with a
   * SocketTimeoutException ("timeout"), as it does at SO_TIMEOUT's expiry. This interceptor runs after OkHttp has
   * set both for the exchange (RealConnection.newCodec, before any network interceptor) and clears only the first.
   * Reads outside an exchange keep SO_TIMEOUT: the TLS handshake on a new connection (made before the interceptors
   * run, with SO_TIMEOUT set) and OkHttp's health check of a pooled connection (which sets its own). HTTP/2
   * connections read untimed already (their timeouts are per stream). A connection reused for the next exchange gets
   * both again from newCodec, and this clears SO_TIMEOUT again. Writes never used SO_TIMEOUT.
   */
  static final UntimedReads INTERCEPTOR = new UntimedReads();

  private UntimedReads() {}

  @Override
  public Response intercept(Chain chain) throws IOException {
    Connection connection = chain.connection();
    if (connection != null && connection.protocol() != Protocol.HTTP_2 && chain.readTimeoutMillis() > 0) {
      connection.socket().setSoTimeout(0);
    }
    return chain.proceed(chain.request());
  }
}
