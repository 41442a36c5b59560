package io.sievecrawl.crawler.job;

import com.fasterxml.jackson.core.JacksonException;
import io.sievecrawl.crawler.CrawlState;
import io.sievecrawl.crawler.fetch.CookiesTxt;
import io.sievecrawl.crawler.report.CrawlTotals;
import io.sievecrawl.sieve.CountMinSketch;
import io.sievecrawl.sieve.Durable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import okhttp3.Cookie;

/**
 * A crawl directory's state files: the totals and sites in scope ({@code state.json}), the per-origin page counts
 * ({@code pages-per-origin.cms}) and the cookies ({@code cookies.txt}). Each is replaced atomically, and only when
 * it changed: a crawl that waits saves its state often.
 */
final class StateFiles {
  private static final String STATE = CrawlFiles.STATE;
  private static final String SKETCH = CrawlFiles.SKETCH;
  private static final String COOKIES = CrawlFiles.COOKIES;

  /** The state file: the crawl's totals and the hosts in scope. */
  record StateFile(int runs, long fetched, long bytes, long retries, Map<String, Long> byStatusClass,
      Map<String, Long> errors, Map<String, Long> skipped, Map<String, Long> notAdmitted, long pagesStarted,
      long elapsedMillis, Set<String> scopeSites) {

    static StateFile of(CrawlState state) {
      CrawlTotals t = state.totals();
      return new StateFile(t.runs(), t.fetched(), t.bytes(), t.retries(), t.byStatusClass(), t.errors(), t.skipped(),
          t.notAdmitted(), t.pagesStarted(), t.elapsed().toMillis(), state.scopeSites());
    }

    CrawlTotals totals() {
      return new CrawlTotals(runs, fetched, bytes, retries, orEmpty(byStatusClass), orEmpty(errors),
          orEmpty(skipped), orEmpty(notAdmitted), pagesStarted, Duration.ofMillis(elapsedMillis));
    }

    /** The state as its file holds it: the fields in their order, as {@link StateFiles#load} reads them. */
    byte[] toJson() throws IOException {
      return JsonFiles.object(json -> {
        json.writeNumberField("runs", runs);
        json.writeNumberField("fetched", fetched);
        json.writeNumberField("bytes", bytes);
        json.writeNumberField("retries", retries);
        JsonFiles.counts(json, "byStatusClass", byStatusClass);
        JsonFiles.counts(json, "errors", errors);
        JsonFiles.counts(json, "skipped", skipped);
        JsonFiles.counts(json, "notAdmitted", notAdmitted);
        json.writeNumberField("pagesStarted", pagesStarted);
        json.writeNumberField("elapsedMillis", elapsedMillis);
        JsonFiles.strings(json, "scopeSites", scopeSites);
      });
    }

    private static Map<String, Long> orEmpty(Map<String, Long> map) {
      return map == null ? Map.of() : map;
    }
  }

  private final Path dir;
  private final Map<String, byte[]> lastWritten = new HashMap<>(); // files as this process last wrote them
  private CountMinSketch savedSketch; // the sketch last saved, and its updates() then: not encoded again unchanged
  private long savedSketchUpdates;
  private boolean fresh; // the files hold CrawlState.fresh(), as this process wrote them

  StateFiles(Path dir) {
    this.dir = dir;
  }

  /**
   * What earlier runs left.
   *
   * @param earlierRuns runs before this one, saved or not: the totals count at least as many
   * @throws CrawlJobException if a file is damaged
   */
  synchronized CrawlState load(int earlierRuns) throws IOException {
    if (fresh) { // no need to read back what was just written: reading JSON is some 30 ms of a short crawl's start
      CrawlState state = CrawlState.fresh();
      return new CrawlState(state.totals().withRunsAtLeast(earlierRuns), state.scopeSites(), state.pagesPerOrigin(),
          state.cookies());
    }
    Path stateFile = dir.resolve(STATE);
    Path sketchFile = dir.resolve(SKETCH);
    Path cookieFile = dir.resolve(COOKIES);
    try {
      StateFile state = JsonFiles.reader().readValue(Files.readAllBytes(stateFile), StateFile.class);
      CountMinSketch sketch = Files.exists(sketchFile) ? CountMinSketch.fromBytes(Files.readAllBytes(sketchFile))
          : CrawlState.fresh().pagesPerOrigin();
      // a crawl directory of an earlier release has no cookie file: it resumes without cookies
      List<Cookie> cookies = Files.exists(cookieFile)
          ? CookiesTxt.read(new String(Files.readAllBytes(cookieFile), StandardCharsets.UTF_8)) : List.of();
      CrawlTotals totals = state.totals().withRunsAtLeast(earlierRuns);
      return new CrawlState(totals, state.scopeSites() == null ? Set.of() : state.scopeSites(), sketch, cookies);
    } catch (JacksonException e) {
      String why = e.getOriginalMessage() == null ? "not JSON" : e.getOriginalMessage().lines().findFirst().orElse("");
      throw new CrawlJobException(stateFile + ": damaged (" + why.strip() + (e.getLocation() == null ? ""
          : ", at line " + e.getLocation().getLineNr() + " column " + e.getLocation().getColumnNr()) + ")");
    } catch (NullPointerException e) {
      throw new CrawlJobException(stateFile + ": damaged (a field is missing)");
    } catch (IllegalArgumentException e) {
      throw new CrawlJobException(sketchFile + ": damaged (" + e.getMessage() + ")");
    }
  }

  /** Saves the state of a crawl that has not started, as {@link #write} does. */
  synchronized void writeFresh() throws IOException {
    write(CrawlState.fresh());
    fresh = true;
  }

  /** Saves {@code state}: each file is replaced atomically, unless it holds what it would be replaced with. */
  synchronized void write(CrawlState state) throws IOException {
    fresh = false;
    CountMinSketch sketch = state.pagesPerOrigin();
    long updates = sketch.updates();
    if (sketch != savedSketch || updates != savedSketchUpdates) {
      replaceIfChanged(SKETCH, sketch.toBytes());
      savedSketch = sketch;
      savedSketchUpdates = updates;
    }
    replaceIfChanged(STATE, StateFile.of(state).toJson());
    replaceIfChanged(COOKIES, CookiesTxt.write(state.cookies()).getBytes(StandardCharsets.UTF_8));
  }

  private void replaceIfChanged(String name, byte[] bytes) throws IOException {
    if (!Arrays.equals(lastWritten.get(name), bytes)) {
      if (name.equals(COOKIES)) {
        Durable.replacePrivate(dir.resolve(name), bytes); // session cookies are secrets
      } else {
        Durable.replace(dir.resolve(name), bytes);
      }
      lastWritten.put(name, bytes);
    }
  }
}
