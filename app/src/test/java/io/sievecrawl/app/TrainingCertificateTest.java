package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sievecrawl.crawler.bench.SyntheticSite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The AOT training's https site: crawled when its certificate is trusted through fetch.ca-file, refused when it is
 * not (the training changes nothing in how the crawler checks certificates), and its key material only in the
 * folder it was given.
 */
class TrainingCertificateTest {
  @TempDir
  Path dir;

  @Test
  void theSiteIsCrawledOverHttpsWhenItsCertificateIsTrustedAndRefusedOtherwise() throws IOException {
    Path keys = Files.createDirectories(dir.resolve("keys"));
    TrainingCertificate certificate = TrainingCertificate.make(keys);
    try (SyntheticSite site = SyntheticSite.startVaried(30, 4, certificate.server())) {
      assertTrue(site.rootUrl().startsWith("https://127.0.0.1:"), site.rootUrl());
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.rootUrl() + "\n");

      Cmd refused = crawl(seeds, "refused");
      assertEquals(30, site.pagesNeverServed(), refused.toString());
      String record = Files.readString(dir.resolve("refused.jsonl"));
      assertTrue(record.contains("TLS certificate not trusted"),
          "without fetch.ca-file the certificate is not trusted: " + record);

      Cmd trusted = crawl(seeds, "trusted", "--set", "fetch.ca-file=" + certificate.caFile());
      assertEquals(ExitCodes.OK, trusted.exitCode(), trusted.toString());
      assertEquals(0, site.pagesNeverServed(), () -> trusted + "\n" + text(dir.resolve("trusted.jsonl")) + "\n"
          + text(dir.resolve("trusted.log")));
    }
    try (var files = Files.list(keys)) {
      assertEquals(List.of("site.p12", "site.pem"), files.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }

  private static String text(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return e.toString();
    }
  }

  private Cmd crawl(Path seeds, String name, String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("crawl", seeds.toString(), "-q", "--delay", "0ms",
        "-o", dir.resolve(name + ".jsonl").toString(), "--log-file", dir.resolve(name + ".log").toString()));
    args.addAll(List.of(more));
    return Cmd.run(args.toArray(String[]::new));
  }
}
