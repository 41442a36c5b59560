package io.sievecrawl.sieve.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Redis Cluster for tests: masters (and replicas) of Debian's {@code redis-server} in cluster mode on free
 * loopback ports, joined by {@code redis-cli --cluster create}, returned once every node sees the cluster as
 * {@code ok} with every slot covered and every replica linked to its master. The test is skipped, saying why, where
 * {@code redis-server} or {@code redis-cli} (the same Debian package) is not installed.
 *
 * <p>Every wait polls the cluster's own state against a deadline: none is a fixed sleep, so the fixture holds on a
 * loaded machine, only slower.
 */
public final class RedisCluster implements AutoCloseable {
  /*
   * Design notes.
   *
   * 1. Each node gets two free ports, its own and its cluster bus's (cluster-port, Redis 7): the default bus port,
   *    port + 10,000, may be taken or beyond 65,535. Both are found free by binding them together, then released;
   *    a node that loses the race for one to another process fails to start and is started again on new ports.
   * 2. cluster-replica-validity-factor 0: a replica takes over from a dead master however long ago it last heard
   *    from it. On a loaded machine the link may look stale at the moment the master dies, and a replica that
   *    refused to take over would leave the slots uncovered.
   * 3. Nodes keep nothing on disk but their nodes.conf (in a directory of their own, deleted by close).
   */
  private static final Duration START_DEADLINE = Duration.ofSeconds(60);
  private static final Duration HEALTHY_DEADLINE = Duration.ofSeconds(90);
  private static final int SLOTS = 16_384;
  private static final int START_ATTEMPTS = 3;

  /** One redis-server of the cluster. */
  public static final class Node {
    private final int port;
    private final List<String> command;
    private Process process;

    private Node(int port, List<String> command) {
      this.port = port;
      this.command = command;
    }

    public int port() {
      return port;
    }

    /** The node alone, as a Redis URI. */
    public String uri() {
      return "redis://127.0.0.1:" + port;
    }

    public boolean alive() {
      return process != null && process.isAlive();
    }

    @Override
    public String toString() {
      return "127.0.0.1:" + port;
    }
  }

  private final Path dir;
  private final Path cli;
  private final List<Node> nodes;

  private RedisCluster(Path dir, Path cli, List<Node> nodes) {
    this.dir = dir;
    this.cli = cli;
    this.nodes = nodes;
  }

  /** Three masters without replicas, and a node timeout of 5 s. */
  public static RedisCluster start() throws IOException, InterruptedException {
    return start(3, 0, Duration.ofSeconds(5));
  }

  /**
   * Starts {@code masters} masters with {@code replicas} replicas each and returns once the cluster is healthy.
   *
   * @param nodeTimeout {@code cluster-node-timeout}: how long a master is silent before its replica takes over
   */
  public static RedisCluster start(int masters, int replicas, Duration nodeTimeout)
      throws IOException, InterruptedException {
    Path server = installed("redis-server");
    Path cli = installed("redis-cli");
    Path dir = Files.createTempDirectory("redis-cluster");
    List<Node> nodes = new ArrayList<>();
    RedisCluster cluster = new RedisCluster(dir, cli, nodes);
    try {
      for (int i = 0; i < masters * (1 + replicas); i++) {
        nodes.add(cluster.startNode(server, nodeTimeout));
      }
      List<String> create = new ArrayList<>(List.of("--cluster", "create"));
      nodes.forEach(node -> create.add(node.toString()));
      create.addAll(List.of("--cluster-replicas", Integer.toString(replicas), "--cluster-yes"));
      cluster.cli(create);
      cluster.awaitHealthy();
      return cluster;
    } catch (IOException | InterruptedException | RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  private static Path installed(String program) {
    Path binary = Stream.of("/usr/bin/", "/usr/local/bin/").map(d -> Path.of(d + program)).filter(Files::isExecutable)
        .findFirst().orElse(null);
    Assumptions.assumeTrue(binary != null, program + " is not installed (apt-get install redis-server)");
    return binary;
  }

  private Node startNode(Path server, Duration nodeTimeout) throws IOException, InterruptedException {
    for (int attempt = 1; ; attempt++) {
      int[] ports = freePorts(2); // note 1
      List<String> command = List.of(server.toString(), "--port", Integer.toString(ports[0]), "--cluster-port",
          Integer.toString(ports[1]), "--bind", "127.0.0.1", "--protected-mode", "no", "--save", "", "--appendonly",
          "no", "--dir", dir.toString(), "--cluster-enabled", "yes", "--cluster-config-file",
          "nodes-" + ports[0] + ".conf", "--cluster-node-timeout", Long.toString(nodeTimeout.toMillis()),
          "--cluster-replica-validity-factor", "0", "--logfile", dir.resolve("node-" + ports[0] + ".log").toString());
      Node node = new Node(ports[0], command);
      if (start(node)) {
        return node;
      }
      if (attempt == START_ATTEMPTS) {
        throw new IOException("redis-server did not start in cluster mode on port " + ports[0] + ": "
            + tail(dir.resolve("node-" + ports[0] + ".log")));
      }
    }
  }

  /** Starts {@code node}'s process; whether it accepts connections before it ends or the deadline passes. */
  private static boolean start(Node node) throws IOException, InterruptedException {
    node.process = new ProcessBuilder(node.command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    await(START_DEADLINE, () -> !node.process.isAlive() || accepts(node.port));
    if (!node.process.isAlive() || !accepts(node.port)) {
      node.process.destroyForcibly().waitFor();
      return false;
    }
    return true;
  }

  private static int[] freePorts(int count) throws IOException {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      int[] ports = new int[count];
      for (int i = 0; i < count; i++) {
        ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        sockets.add(socket);
        ports[i] = socket.getLocalPort();
      }
      return ports;
    } finally {
      for (ServerSocket socket : sockets) {
        socket.close();
      }
    }
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Runs {@code redis-cli ARGS} (a {@code --cluster reshard}, say) and returns its output.
   *
   * @throws IOException if it fails or takes longer than two minutes, with its output
   */
  public String cli(List<String> args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(cli.toString()));
    command.addAll(args);
    Path output = Files.createTempFile(dir, "cli", ".out");
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    if (!process.waitFor(2, TimeUnit.MINUTES)) {
      process.destroyForcibly().waitFor();
      throw new IOException(String.join(" ", args) + " took over two minutes: " + Files.readString(output));
    }
    String text = Files.readString(output);
    if (process.exitValue() != 0 || text.contains("[ERR]")) {
      throw new IOException("redis-cli " + String.join(" ", args) + " failed (" + process.exitValue() + "): " + text);
    }
    return text;
  }

  /**
   * Waits until every node that runs answers that the cluster is {@code ok}, with every slot assigned and served,
   * knows every node started (a killed one stays known, as failed), and each replica is linked to its master.
   *
   * @throws IllegalStateException naming what is still wrong when that takes longer than 90 s
   */
  public void awaitHealthy() throws InterruptedException {
    String[] wrong = {""};
    boolean healthy = await(HEALTHY_DEADLINE, () -> {
      wrong[0] = whatIsWrong();
      return wrong[0].isEmpty();
    });
    if (!healthy) {
      throw new IllegalStateException("the Redis Cluster is not healthy after " + HEALTHY_DEADLINE.toSeconds()
          + " s: " + wrong[0]);
    }
  }

  private String whatIsWrong() {
    List<Node> running = running();
    for (Node node : running) {
      String problem = withNode(node, redis -> {
        String info = redis.sync().clusterInfo();
        if (!info.contains("cluster_state:ok") || !info.contains("cluster_slots_assigned:" + SLOTS)
            || !info.contains("cluster_slots_ok:" + SLOTS) || !info.contains("cluster_known_nodes:" + nodes.size())) {
          return node + " says " + info.lines().filter(l -> l.startsWith("cluster_state") || l.startsWith(
              "cluster_slots_ok") || l.startsWith("cluster_known")).collect(Collectors.joining(", "));
        }
        String replication = redis.sync().info("replication");
        if (replication.contains("role:slave") && !replication.contains("master_link_status:up")) {
          return node + " is a replica whose link to its master is down";
        }
        return "";
      });
      if (!problem.isEmpty()) {
        return problem;
      }
    }
    return "";
  }

  /** Every node, in the order they were started. */
  public List<Node> nodes() {
    return List.copyOf(nodes);
  }

  private List<Node> running() {
    return nodes.stream().filter(Node::alive).toList();
  }

  /** The running masters, by port. */
  public List<Node> masters() {
    return running().stream().filter(node -> withNode(node, redis -> redis.sync().info("replication")
        .contains("role:master"))).sorted(Comparator.comparingInt(Node::port)).toList();
  }

  /** The master that serves {@code key}'s slot now. */
  public Node ownerOf(String key) {
    for (Node master : masters()) {
      boolean owns = withNode(master, redis -> servesSlot(redis.sync().clusterNodes(),
          redis.sync().clusterKeyslot(key)));
      if (owns) {
        return master;
      }
    }
    throw new IllegalStateException("no running master serves the slot of " + key);
  }

  /** Whether the {@code myself} line of CLUSTER NODES lists {@code slot} among its ranges. */
  private static boolean servesSlot(String clusterNodes, long slot) {
    String myself = clusterNodes.lines().filter(l -> l.split(" ")[2].contains("myself")).findFirst().orElse("");
    String[] fields = myself.split(" ");
    for (int i = 8; i < fields.length; i++) {
      if (fields[i].startsWith("[")) {
        continue; // a slot being migrated or imported
      }
      String[] range = fields[i].split("-");
      long from = Long.parseLong(range[0]);
      long to = range.length > 1 ? Long.parseLong(range[1]) : from;
      if (slot >= from && slot <= to) {
        return true;
      }
    }
    return false;
  }

  /** A running node other than {@code owner}: a node an agent may be pointed at that does not hold a key. */
  public Node otherThan(Node owner) {
    return masters().stream().filter(node -> node != owner).findFirst().orElseThrow();
  }

  /** The number of keys each running master holds, by node. */
  public Map<Node, Long> keysPerMaster() {
    Map<Node, Long> keys = new LinkedHashMap<>();
    for (Node master : masters()) {
      keys.put(master, withNode(master, redis -> redis.sync().dbsize()));
    }
    return keys;
  }

  /** Kills {@code node} with SIGKILL, as a crash does, and waits for it to end. */
  public void kill(Node node) throws InterruptedException {
    node.process.destroyForcibly().waitFor();
  }

  /** Every node's URI, comma-separated, as several seed nodes are given: {@code redis://h1:p1,h2:p2}. */
  public String seeds() {
    return "redis://" + nodes.stream().map(Node::toString).collect(Collectors.joining(","));
  }

  /** Runs {@code action} on a connection of its own to {@code node}. */
  public <R> R withNode(Node node, java.util.function.Function<StatefulRedisConnection<String, String>, R> action) {
    RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", node.port));
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      return action.apply(connection);
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  /**
   * Polls {@code done} every 20 ms until it holds or {@code deadline} passes; whether it held. A failure to reach a
   * node while polling counts as not done yet.
   */
  static boolean await(Duration deadline, BooleanSupplier done) throws InterruptedException {
    long end = System.nanoTime() + deadline.toNanos();
    while (true) {
      try {
        if (done.getAsBoolean()) {
          return true;
        }
      } catch (RuntimeException e) {
        // a node not answering yet: poll again
      }
      if (System.nanoTime() - end > 0) {
        return false;
      }
      Thread.sleep(20); // polling the cluster's state, not standing in for synchronization
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Stops every node (SIGTERM, then SIGKILL after 10 s) and deletes their directory. */
  @Override
  public void close() {
    for (Node node : nodes) {
      if (node.process != null) {
        node.process.destroy();
      }
    }
    for (Node node : nodes) {
      try {
        if (node.process != null && !node.process.waitFor(10, TimeUnit.SECONDS)) {
          node.process.destroyForcibly().waitFor();
        }
      } catch (InterruptedException e) {
        node.process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // a temporary directory left behind
    }
  }
}
