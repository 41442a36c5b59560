package io.sievecrawl.sieve.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback proxy in front of Redis that, once {@link #cutEvery} is set, drops the connection instead of passing
 * on every Nth reply: Redis has run the commands, and the client never learns their outcome. For tests of what a
 * command sent again after a lost reply does.
 */
final class ReplyCutter implements AutoCloseable {
  private final ServerSocket listener;
  private final int redisPort;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final AtomicLong replies = new AtomicLong();
  private final AtomicInteger cuts = new AtomicInteger();
  private volatile int every;

  ReplyCutter(int redisPort) throws IOException {
    this.redisPort = redisPort;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofPlatform().daemon().name("reply-cutter").start(this::accept);
  }

  String uri() {
    return "redis://127.0.0.1:" + listener.getLocalPort() + "/0";
  }

  /** From now on, drops the connection in place of every {@code n}th reply (0: passes every reply on). */
  void cutEvery(int n) {
    every = n;
  }

  /** Connections dropped so far. */
  int cuts() {
    return cuts.get();
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket redis = new Socket(InetAddress.getLoopbackAddress(), redisPort);
        sockets.add(client);
        sockets.add(redis);
        Thread.ofPlatform().daemon().start(() -> pump(client, redis, false));
        Thread.ofPlatform().daemon().start(() -> pump(redis, client, true));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void pump(Socket from, Socket to, boolean replies) {
    byte[] buffer = new byte[64 * 1024];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        int n0 = every;
        if (replies && n0 > 0 && this.replies.incrementAndGet() % n0 == 0) {
          cuts.incrementAndGet();
          break; // the reply is dropped with the connection
        }
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // the other side closed
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    sockets.forEach(ReplyCutter::closeQuietly);
  }
}
