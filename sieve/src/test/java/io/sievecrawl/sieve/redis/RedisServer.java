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
  private final List<String> command;
  private final int port;
  private Process process;

  private RedisServer(List<String> command, int port) {
    this.command = command;
    this.port = port;
  }

  /** Starts a server without persistence; {@code password} may be {@code null}. */
  public static RedisServer start(String password) throws IOException, InterruptedException {
    return start(password, List.of());
  }

  /**
   * A server that keeps its data in {@code dir} with {@code appendonly yes}, so that after {@link #stop} (which
   * writes it out, as a restart does) {@link #startAgain} finds it.
   */
  public static RedisServer startPersistent(Path dir) throws IOException, InterruptedException {
    return start(null, List.of("--appendonly", "yes", "--dir", dir.toString()));
  }

  /**
   * A server that writes its data to {@code dir}/dump.rdb only when told ({@link #save}), and loads that file when it
   * starts again: a test restores an older snapshot by copying one over it between {@link #kill} and
   * {@link #startAgain}.
   */
  public static RedisServer startSnapshotting(Path dir) throws IOException, InterruptedException {
    return start(null, List.of("--dir", dir.toString(), "--dbfilename", "dump.rdb"));
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
    command.addAll(options); // a later option wins: --appendonly yes
    RedisServer server = new RedisServer(List.copyOf(command), port);
    server.startAgain();
    return server;
  }

  /** Starts the server (again) on its port, with its options; returns once it accepts connections. */
  public void startAgain() throws IOException, InterruptedException {
    startAgain(List.of());
  }

  /**
   * As {@link #startAgain()}, with more options: {@code --key-load-delay 1000}, say, has it load each key of the
   * AOF's RDB base ({@link #rewriteAof}) 1,000 µs, and {@code --loading-process-events-interval-bytes 1024} answer
   * LOADING meanwhile rather than only between megabytes of data.
   */
  public void startAgain(List<String> more) throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(command);
    all.addAll(more);
    process = new ProcessBuilder(all).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!accepts()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new IOException("redis-server did not start on port " + port);
      }
      Thread.sleep(20); // waiting for the server's port to open, not standing in for synchronization
    }
  }

  /** Writes the data out as the AOF's RDB base (BGREWRITEAOF), and returns once that is done. */
  public void rewriteAof() throws InterruptedException {
    try (var client = io.lettuce.core.RedisClient.create(uri()); var connection = client.connect()) {
      connection.sync().bgrewriteaof();
      while (true) {
        String info = connection.sync().info("persistence");
        if (info.contains("aof_rewrite_in_progress:0") && info.contains("aof_rewrite_scheduled:0")) {
          return;
        }
        Thread.sleep(20); // polling the rewrite's end
      }
    }
  }

  /** Writes the data to the RDB file now (SAVE), and returns once it is written. */
  public void save() {
    try (var client = io.lettuce.core.RedisClient.create(uri()); var connection = client.connect()) {
      connection.sync().save();
    }
  }

  /** Kills the server with SIGKILL, as a crash does: nothing is written; waits for it to end. */
  public void kill() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }

  /** Whether the server is loading its data (and answers LOADING to commands). */
  public boolean loading() {
    try (var client = io.lettuce.core.RedisClient.create(uri()); var connection = client.connect()) {
      return connection.sync().info("persistence").contains("loading:1");
    }
  }

  /** The number of keys. */
  public long keys() {
    try (var client = io.lettuce.core.RedisClient.create(uri()); var connection = client.connect()) {
      return connection.sync().dbsize();
    }
  }

  /** Stops the server with SIGTERM, as a restart does (with appendonly, it writes its data out first); waits. */
  public void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
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
    if (process == null) {
      return;
    }
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
