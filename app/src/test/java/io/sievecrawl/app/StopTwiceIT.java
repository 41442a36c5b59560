package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A second stop signal quits at once, saying so in one line with the command that continues the crawl. */
class StopTwiceIT {
  @TempDir
  Path dir;

  @Test
  void aSecondSignalQuitsAtOnceAndSaysHowToContinue() throws Exception {
    CountDownLatch fetching = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      fetching.countDown();
      try {
        release.await(2, TimeUnit.MINUTES); // a page that does not come: the graceful stop waits for it
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      exchange.sendResponseHeaders(500, -1);
      exchange.close();
    });
    server.start();
    Process child = null;
    try {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), "http://127.0.0.1:" + server.getAddress().getPort()
          + "/\n");
      Path job = dir.resolve("job");
      Path stderr = dir.resolve("stderr.txt");
      child = ChildProcess.start(List.of(), stderr, "crawl", seeds.toString(), "--job", job.toString(), "-o",
          dir.resolve("out.jsonl").toString(), "--log-file", dir.resolve("log").toString(), "--set",
          "robots.obey=false");
      while (!fetching.await(10, TimeUnit.MILLISECONDS)) {
        assertFalse(child.waitFor(0, TimeUnit.MILLISECONDS), "the crawl ended: " + Files.readString(stderr));
      }
      child.destroy(); // SIGTERM: stop gracefully, waiting for the page in flight
      while (!Files.readString(stderr).contains("stopping: ")) {
        assertFalse(child.waitFor(10, TimeUnit.MILLISECONDS), "the crawl ended: " + Files.readString(stderr));
      }
      child.destroy(); // a second one: at once
      assertTrue(child.waitFor(1, TimeUnit.MINUTES));
      assertEquals(ExitCodes.INTERRUPTED, child.exitValue(), Files.readString(stderr));
      assertTrue(Files.readString(stderr).contains("sievecrawl: stopped at once; the pages that were in flight are"
          + " fetched again by: sievecrawl resume " + job + "\n"), Files.readString(stderr));
    } finally {
      release.countDown();
      if (child != null) {
        child.destroyForcibly();
      }
      server.stop(0);
    }
  }
}
