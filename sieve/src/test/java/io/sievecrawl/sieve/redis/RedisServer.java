package io.sievecrawl.sieve.redis;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real {@code redis-server} (Debian's package) on a free loopback port, for tests; the test is skipped, saying
 * why, where none is installed ({@code .ci/run} installs it, so CI runs these tests).
 */
public final class RedisServer implements AutoCloseable {
  private final Process process;
  private final int port;

  private RedisServer(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Starts a server without persistence; {@code password} may be {@code null}. */
  public static RedisServer start(String password) throws IOException, InterruptedException {
    return start(password, List.of());
  }

  /** As {@link #start(String)}, with more of redis-server's options ({@code --maxmemory 2mb}, say). */
  public static RedisServer start(String password, List<String> options) throws IOException, InterruptedException {
    Path binary = List.of(Path.of("/usr/bin/redis-server"), Path.of("/usr/local/bin/redis-server")).stream()
        .filter(Files::isExecutable).findFirst().orElse(null);
    Assumptions.assumeTrue(binary != null, "redis-server is not installed (apt-get install redis-server)");
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    List<String> command = new ArrayList<>(List.of(binary.toString(), "--port", Integer.toString(port), "--bind",
        "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "no"));
    if (password != null) {
      command.addAll(List.of("--requirepass", password));
    }
    command.addAll(options);
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    RedisServer server = new RedisServer(process, port);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!server.accepts()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new IOException("redis-server did not start on port " + port);
      }
      Thread.sleep(20); // waiting for the server's port to open, not standing in for synchronization
    }
    return server;
  }

  private boolean accepts() {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  public int port() {
    return port;
  }

  public String uri() {
    return "redis://127.0.0.1:" + port + "/0";
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
