package io.sievecrawl.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/** A results file as tests read it: every line must parse as JSON. */
final class ResultRecords {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ResultRecords() {}

  /** The distinct URLs that {@code results} has records of. */
  static Set<String> urls(Path results) throws IOException {
    Set<String> urls = new HashSet<>();
    for (String line : Files.readAllLines(results)) {
      urls.add(JSON.readTree(line).get("url").asText()); // throws on a torn or damaged line
    }
    return urls;
  }
}
