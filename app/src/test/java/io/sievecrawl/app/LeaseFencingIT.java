package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sievecrawl.sieve.redis.RedisServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Leases fenced by their holder: an agent (a child JVM) stopped with SIGSTOP past its lease, while another takes its
 * origin over, sends nothing more to that origin once it runs again (SIGCONT), unless the other's lease on it ends
 * first (on a loaded machine a starved agent loses its leases, and the origin may pass back and forth); and it does
 * not fetch robots.txt again, which the first kept in Redis. Each agent names itself in a request header, and the
 * server records who asked, in order. Runs once; {@code -Dsievecrawl.fencing.runs=30} runs it 30 times.
 */
class LeaseFencingIT {
  private static final int PAGES = 40;

  @TempDir
  Path dir;

  @TestFactory
  Stream<DynamicTest> anAgentPausedPastItsLeaseSendsNothingMoreToTheOriginAnotherAgentTook() {
    int runs = Integer.getInteger("sievecrawl.fencing.runs", 1);
    return IntStream.rangeClosed(1, runs).mapToObj(run -> DynamicTest.dynamicTest("run " + run, () -> {
      Path runDir = Files.createDirectories(dir.resolve("run-" + run));
      pausedAgentSendsNothingMore(runDir);
    }));
  }

  private void pausedAgentSendsNothingMore(Path runDir) throws Exception {
    try (RedisServer redis = RedisServer.start(null); Site site = new Site(PAGES)) {
      Path seeds = Files.writeString(runDir.resolve("seeds.txt"), site.root() + "\n");
      List<String> tuning = List.of("--delay", "200ms", "--host-concurrency", "1", "--concurrency", "2", "--set",
          "frontier.lease-ttl=2s");
      // started together: either may lease the origin's shard first
      Process[] agents = {
          agent(runDir, 1, concat(List.of("crawl", seeds.toString(), "--redis", redis.uri(), "--crawl-name",
              "fenced"), tuning)),
          agent(runDir, 2, concat(List.of("join", "--redis", redis.uri(), "--crawl-name", "fenced"), tuning))};
      Process holder = null;
      try {
        awaitLogLine(agents[0], runDir.resolve("agent-1.log"), "works the shared crawl");
        awaitLogLine(agents[1], runDir.resolve("agent-2.log"), "works the shared crawl");
        int live = site.requesters().size();
        String holderId = site.awaitRequest(live + 2); // both agents live, and two more pages fetched
        holder = agents[Integer.parseInt(holderId) - 1];
        String otherId = holderId.equals("1") ? "2" : "1";
        java.time.Instant paused = java.time.Instant.now(); // the agents' logs are dated on this clock
        signal("STOP", holder); // just after a response: its next request is a delay away
        int stopped = site.requesters().size();
        site.awaitRequestBy(otherId);
        signal("CONT", holder);

        for (int i = 0; i < 2; i++) {
          assertTrue(agents[i].waitFor(2, TimeUnit.MINUTES), "agent " + (i + 1) + " ends");
          assertEquals(0, agents[i].exitValue(), Files.readString(runDir.resolve("stderr-" + (i + 1) + ".txt")));
        }
        // The origin passes to an agent only when that agent has its shard's lease, which it takes in Redis
        // (logged: "took shard S"), or holds again after the other's lease on it ended (logged: "lost the lease of
        // shard S", "handed shard S back"). On a loaded machine a starved agent loses its lease more than once, so
        // the origin may pass back and forth; but each pass to an agent after the pause needs a take of the shard by
        // it, or an end of the other's lease, after the pause. A pass with neither is a request sent while the
        // other held the origin: the paused agent going on where it stopped.
        List<String> order = new java.util.ArrayList<>(List.of(holderId)); // the holder had the origin at the pause
        List<String> asked = site.requesters();
        order.addAll(asked.subList(stopped, asked.size()));
        Set<String> shards = busyShards(runDir);
        for (String agent : List.of(holderId, otherId)) {
          String other = agent.equals(holderId) ? otherId : holderId;
          int passedTo = 0;
          for (int i = 1; i < order.size(); i++) {
            passedTo += !order.get(i - 1).equals(agent) && order.get(i).equals(agent) ? 1 : 0;
          }
          long taken = logLines(runDir.resolve("agent-" + agent + ".log"), paused, shards, "took shard %s, ");
          long otherEnded = logLines(runDir.resolve("agent-" + other + ".log"), paused, shards,
              "lost the lease of shard %s ", "handed shard %s back");
          assertTrue(passedTo <= taken + otherEnded, "the origin passed to agent " + agent + " " + passedTo
              + " times after the pause, but it took shard " + shards + " " + taken + " times and agent " + other
              + "'s lease on it ended " + otherEnded + " times: a request was sent while the other agent held the"
              + " origin (agent " + holderId + " was paused at " + paused + "); requests by agent, in order, from"
              + " the pause: " + order + "\n" + leaseLines(runDir));
        }
        assertEquals(Set.of(), site.neverServed(), "every page fetched");
        // Before the pause the holder had fetched pages, so its robots.txt rules were in Redis: whoever has the
        // origin after it uses them. (At the start, under load, both agents may fetch robots.txt: a lease can pass
        // before the first fetch is kept.)
        assertTrue(site.robotsFetchesBefore(stopped) >= 1, "robots.txt fetched before the pause");
        assertEquals(site.robotsFetchesBefore(stopped), site.robotsFetches(), "robots.txt fetched again after the"
            + " pause: the agent that took the origin over did not use the rules kept in Redis");
      } finally {
        if (holder != null) {
          signal("CONT", holder);
        }
        for (Process agent : agents) {
          agent.destroyForcibly();
        }
      }
    }
  }

  private static Process agent(Path runDir, int index, String... args) throws IOException {
    String[] all = concat(List.of(args), List.of("-H", "X-Agent: " + index, "-o",
        runDir.resolve("a" + index + ".jsonl").toString(), "--log-file",
        runDir.resolve("agent-" + index + ".log").toString()));
    return ChildProcess.start(List.of(), runDir.resolve("stderr-" + index + ".txt"), all);
  }

  /** The shards taken because they held work: with one origin, its shard. */
  private static Set<String> busyShards(Path runDir) throws IOException {
    Set<String> shards = new java.util.TreeSet<>();
    java.util.regex.Pattern took = java.util.regex.Pattern.compile("took shard (\\d+), which holds work");
    for (int i = 1; i <= 2; i++) {
      java.util.regex.Matcher m = took.matcher(Files.readString(runDir.resolve("agent-" + i + ".log")));
      while (m.find()) {
        shards.add(m.group(1));
      }
    }
    assertTrue(!shards.isEmpty(), "the agent that took the origin over logged which shard it took");
    return shards;
  }

  /**
   * How many lines of the agent's log, dated from {@code since} on, say one of {@code events} (formats taking the
   * shard) of one of {@code shards}.
   */
  private static long logLines(Path log, java.time.Instant since, Set<String> shards, String... events)
      throws IOException {
    return Files.readAllLines(log).stream()
        .filter(line -> line.length() > 24 && line.charAt(4) == '-' && line.charAt(23) == 'Z'
            && !java.time.Instant.parse(line.substring(0, 24)).isBefore(since))
        .filter(line -> shards.stream().anyMatch(shard -> java.util.Arrays.stream(events)
            .anyMatch(event -> line.contains(String.format(event, shard)))))
        .count();
  }

  /** What the agents' logs say of their leases, for a failure's message. */
  private static String leaseLines(Path runDir) throws IOException {
    StringBuilder lines = new StringBuilder();
    for (int i = 1; i <= 2; i++) {
      for (String line : Files.readAllLines(runDir.resolve("agent-" + i + ".log"))) {
        if (line.contains("shard") || line.contains("lease") || line.contains("WARN")) {
          lines.append("agent ").append(i).append(": ").append(line).append('\n');
        }
      }
    }
    return lines.toString();
  }

  private static void signal(String signal, Process process) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
    assertTrue(kill.waitFor(1, TimeUnit.MINUTES));
  }

  /** Waits until the agent's log holds {@code text}, failing if the agent ends first. */
  private static void awaitLogLine(Process agent, Path log, String text) throws Exception {
    while (!Files.exists(log) || !Files.readString(log).contains(text)) {
      if (agent.waitFor(20, TimeUnit.MILLISECONDS)) {
        throw new AssertionError("the agent ended early, exit " + agent.exitValue() + "\n"
            + (Files.exists(log) ? Files.readString(log) : ""));
      }
    }
  }

  private static String[] concat(List<String> a, List<String> b) {
    return Stream.concat(a.stream(), b.stream()).toArray(String[]::new);
  }

  /**
   * One origin of {@code pages} pages, page i linking to pages 2i+1 and 2i+2; no robots.txt. Records the X-Agent
   * header of every request in the order they came.
   */
  private static final class Site implements AutoCloseable {
    private final int pages;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final List<String> requesters = new CopyOnWriteArrayList<>();
    private final Set<Integer> served = ConcurrentHashMap.newKeySet();
    private final List<Integer> robotsAt = new CopyOnWriteArrayList<>(); // where robots.txt requests came, in order

    Site(int pages) throws IOException {
      this.pages = pages;
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
      server.setExecutor(executor);
      server.createContext("/", this::handle);
      server.start();
    }

    String root() {
      return "http://127.0.0.1:" + server.getAddress().getPort() + "/p0";
    }

    /** Waits until {@code count} requests have been answered; returns who made the last of them. */
    synchronized String awaitRequest(int count) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (requesters.size() < count) {
        long left = deadline - System.nanoTime();
        assertTrue(left > 0, "only " + requesters.size() + " requests");
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return requesters.get(count - 1);
    }

    /** Waits until {@code agent} makes a request, after those answered so far. */
    synchronized void awaitRequestBy(String agent) throws InterruptedException {
      int from = requesters.size();
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (!requesters.subList(from, requesters.size()).contains(agent)) {
        long left = deadline - System.nanoTime();
        assertTrue(left > 0, "agent " + agent + " took nothing over: " + requesters);
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }

    List<String> requesters() {
      return List.copyOf(requesters);
    }

    int robotsFetches() {
      return robotsAt.size();
    }

    /** The robots.txt requests among the first {@code requests} answered. */
    long robotsFetchesBefore(int requests) {
      return robotsAt.stream().filter(at -> at < requests).count();
    }

    Set<Integer> neverServed() {
      Set<Integer> missing = new java.util.TreeSet<>();
      for (int i = 0; i < pages; i++) {
        if (!served.contains(i)) {
          missing.add(i);
        }
      }
      return missing;
    }

    private synchronized void record(String agent) {
      record(agent, false);
    }

    private synchronized void record(String agent, boolean robots) {
      if (robots) {
        robotsAt.add(requesters.size());
      }
      requesters.add(agent);
      notifyAll();
    }

    private void handle(HttpExchange exchange) throws IOException {
      try (exchange) {
        String agent = exchange.getRequestHeaders().getFirst("X-Agent");
        String path = exchange.getRequestURI().getPath();
        int page = path.startsWith("/p") ? parse(path.substring(2)) : -1;
        if (page < 0 || page >= pages) {
          exchange.sendResponseHeaders(404, -1);
          record(String.valueOf(agent), path.equals("/robots.txt"));
          return;
        }
        served.add(page);
        StringBuilder html = new StringBuilder("<html><body>");
        for (int link : new int[] {2 * page + 1, 2 * page + 2}) {
          if (link < pages) {
            html.append("<a href=\"/p").append(link).append("\">p").append(link).append("</a>");
          }
        }
        byte[] body = html.append("</body></html>").toString().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
        record(String.valueOf(agent)); // once answered: the test may stop the agent now
      }
    }

    private static int parse(String digits) {
      try {
        return Integer.parseInt(digits);
      } catch (NumberFormatException e) {
        return -1;
      }
    }

    @Override
    public void close() {
      server.stop(0);
      executor.shutdownNow();
    }
  }
}
