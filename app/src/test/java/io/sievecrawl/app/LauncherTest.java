package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher script ({@code src/main/sh/sievecrawl}) run by {@code /bin/sh}, with stand-in JDKs whose
 * {@code java} prints the arguments it was given: which Java it picks, and the class-data archive it names.
 */
@DisabledOnOs(OS.WINDOWS) // a POSIX shell script
class LauncherTest {
  @TempDir
  Path dir;
  private Path launcher;
  private Path jar;
  private Path cache;

  @BeforeEach
  void install() throws IOException {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    launcher = Files.copy(Path.of("src/main/sh/sievecrawl"), bin.resolve("sievecrawl"));
    executable(launcher);
    jar = Files.writeString(bin.resolve("sievecrawl.jar"), "not really a jar");
    cache = dir.resolve("cache");
  }

  /** A JDK folder whose release file says {@code version} and whose java prints one argument per line. */
  private Path fakeJdk(String name, String version) throws IOException {
    Path home = Files.createDirectories(dir.resolve(name));
    Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
    Files.createDirectories(home.resolve("lib"));
    Files.writeString(home.resolve("lib/modules"), "modules of " + name);
    Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
    Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
    executable(java);
    return java;
  }

  private static void executable(Path file) throws IOException {
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** The arguments the launcher handed to java, given {@code env} and the command line {@code args}. */
  private List<String> launch(Map<String, String> env, String... args) throws Exception {
    ProcessBuilder builder = new ProcessBuilder();
    builder.command().add("/bin/sh");
    builder.command().add(launcher.toString());
    builder.command().addAll(List.of(args));
    builder.environment().remove("JAVA_HOME");
    builder.environment().remove("SIEVECRAWL_JAVA");
    builder.environment().remove("SIEVECRAWL_OPTS");
    builder.environment().remove("SIEVECRAWL_CDS");
    builder.environment().put("XDG_CACHE_HOME", cache.toString());
    builder.environment().putAll(env);
    Path output = dir.resolve("launcher-output.txt");
    Process process = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the launcher did not finish");
    String printed = Files.readString(output);
    assertEquals(0, process.exitValue(), printed);
    return printed.lines().toList();
  }

  private static String archiveOf(List<String> javaArgs) {
    return javaArgs.stream().filter(a -> a.startsWith("-XX:SharedArchiveFile=")).findFirst()
        .map(a -> a.substring("-XX:SharedArchiveFile=".length())).orElse(null);
  }

  @Test
  void runsTheJarBesideItWithTheChosenJavaAndPassesTheArgumentsOn() throws Exception {
    Path java = fakeJdk("jdk21", "21.0.2");
    List<String> args = launch(Map.of("SIEVECRAWL_JAVA", java.toString()), "crawl", "seeds file.txt", "-n", "1M");
    int at = args.indexOf("-jar");
    assertEquals(jar.toRealPath().toString(), Path.of(args.get(at + 1)).toRealPath().toString());
    assertEquals(List.of("crawl", "seeds file.txt", "-n", "1M"), args.subList(at + 2, args.size()));
  }

  @Test
  void skipsAJavaOlderThan21() throws Exception {
    Path old = fakeJdk("jdk17", "17.0.15");
    Path java = fakeJdk("jdk21", "21.0.2");
    List<String> args = launch(Map.of("SIEVECRAWL_JAVA", old.toString(),
        "JAVA_HOME", java.getParent().getParent().toString()), "plan");
    assertTrue(archiveOf(args).matches(".*/plan-[0-9]+-java21-.*"), args.toString());
  }

  @Test
  void namesTheArchiveAfterTheJarAndTheJdkAndRemovesTheCommandsStaleOnes() throws Exception {
    Path java = fakeJdk("jdk21", "21.0.2");
    Map<String, String> env = Map.of("SIEVECRAWL_JAVA", java.toString());
    Path archives = Files.createDirectories(cache.resolve("sievecrawl"));
    Path stale = Files.writeString(archives.resolve("crawl-java21.jsa"), "named as before installations were");
    Path otherCommand = Files.writeString(archives.resolve("plan-java21.jsa"), "another command's");
    Path otherInstallation = Files.writeString(archives.resolve("crawl-12345-java21-1-2-3-4.jsa"), "elsewhere");

    String first = archiveOf(launch(env, "crawl", "seeds.txt"));
    assertTrue(first.matches(Pattern.quote(archives + "/crawl-") + "[0-9]+-java21-[0-9]+-[0-9]+-[0-9]+-[0-9]+\\.jsa"),
        first);
    assertFalse(Files.exists(stale), "a stale archive of the command is removed");
    assertTrue(Files.exists(otherCommand), "another command's archive is kept");
    assertTrue(Files.exists(otherInstallation), "another installation's archive is kept");

    writtenAndMarked(first);
    assertEquals(first, archiveOf(launch(env, "crawl", "seeds.txt")), "the same jar and JDK: the same archive");
    assertTrue(Files.exists(Path.of(first)));

    Files.writeString(jar, "a rebuilt jar, of another size");
    String rebuilt = archiveOf(launch(env, "crawl", "seeds.txt"));
    assertFalse(rebuilt.equals(first), "a rebuilt jar gets its own archive");
    assertFalse(Files.exists(Path.of(first)), "and the archive of the old jar goes");
  }

  /** What the JVM and the command do at the end of a run that did its work (see {@link ClassArchive}). */
  private static void writtenAndMarked(String archive) throws IOException {
    Files.writeString(Path.of(archive), "written by the JVM at exit");
    Files.writeString(Path.of(archive + ".ok"), "");
  }

  private static String archiveBeingMade(List<String> javaArgs) {
    return javaArgs.stream().filter(a -> a.startsWith("-Dsievecrawl.class-archive=")).findFirst()
        .map(a -> a.substring("-Dsievecrawl.class-archive=".length())).orElse(null);
  }

  @Test
  void anArchiveIsMadeAgainUntilARunThatDidItsWorkMarksIt() throws Exception {
    Map<String, String> env = Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk21", "21.0.2").toString());
    List<String> first = launch(env, "crawl", "--help");
    String archive = archiveOf(first);
    assertEquals(archive, archiveBeingMade(first), "the run is told which archive it makes");
    Files.writeString(Path.of(archive), "written at the exit of crawl --help, with few classes");

    List<String> second = launch(env, "crawl", "seeds.txt");
    assertEquals(archive, archiveBeingMade(second), "an unmarked archive is made again");
    assertFalse(Files.exists(Path.of(archive)), "and the unmarked one is removed first");
    writtenAndMarked(archive);

    List<String> third = launch(env, "crawl", "seeds.txt");
    assertEquals(archive, archiveOf(third));
    assertEquals(null, archiveBeingMade(third), "a marked archive is used as it is");
    assertTrue(Files.exists(Path.of(archive)));

    Files.delete(Path.of(archive)); // e.g. a crawl killed before the JVM could write it, after marking it
    assertEquals(archive, archiveBeingMade(launch(env, "crawl", "seeds.txt")));
    assertFalse(Files.exists(Path.of(archive + ".ok")), "a mark without its archive is removed");
  }

  @Test
  void twoJdksUsedInTurnKeepTheirOwnArchives() throws Exception {
    Map<String, String> jdk21 = Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk21", "21.0.2").toString());
    Map<String, String> jdk25 = Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk25", "25.0.1").toString());
    String first = archiveOf(launch(jdk21, "crawl"));
    writtenAndMarked(first);
    String second = archiveOf(launch(jdk25, "crawl"));
    assertFalse(second.equals(first));
    writtenAndMarked(second);
    assertEquals(first, archiveOf(launch(jdk21, "crawl")));
    assertTrue(Files.exists(Path.of(first)) && Files.exists(Path.of(second)));
  }

  @Test
  void readsAReleaseFileWithoutAFinalNewline() throws Exception {
    Path java = fakeJdk("jdk21", "21.0.2");
    Files.writeString(java.getParent().getParent().resolve("release"), "JAVA_VERSION=\"21.0.2\"");
    assertTrue(archiveOf(launch(Map.of("SIEVECRAWL_JAVA", java.toString()), "crawl")).contains("-java21-"));
  }

  @Test
  void classDataSharingCanBeTurnedOffAndOnlyCommandsGetAnArchive() throws Exception {
    Path java = fakeJdk("jdk21", "21.0.2");
    assertEquals(null, archiveOf(launch(Map.of("SIEVECRAWL_JAVA", java.toString(), "SIEVECRAWL_CDS", "off"),
        "crawl")));
    for (String notACommand : List.of("crawll", "../crawl", "--help", "-V")) {
      assertEquals(null, archiveOf(launch(Map.of("SIEVECRAWL_JAVA", java.toString()), notACommand)), notACommand);
    }
    assertFalse(Files.exists(cache.resolve("sievecrawl")) && Files.list(cache.resolve("sievecrawl")).findAny()
        .isPresent(), "nothing written to the cache");
  }

  @Test
  void otherInstallationsArchivesAreCutToTheNewestElevenBesideTheOneMadeNow() throws Exception {
    Path java = fakeJdk("jdk21", "21.0.2");
    Path archives = Files.createDirectories(cache.resolve("sievecrawl"));
    for (int i = 0; i < 20; i++) {
      Path old = Files.writeString(archives.resolve("crawl-" + (1000 + i) + "-java21-1-2-3-4.jsa"), "elsewhere");
      Files.writeString(archives.resolve(old.getFileName() + ".ok"), "");
      Files.setLastModifiedTime(old, FileTime.fromMillis(1_000_000L * (i + 1)));
    }
    launch(Map.of("SIEVECRAWL_JAVA", java.toString()), "crawl"); // makes no archive itself: the fake java exits
    try (var left = Files.list(archives)) {
      List<String> names = left.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jsa")).sorted().toList();
      assertEquals(11, names.size(), names.toString());
      assertEquals("crawl-1009-java21-1-2-3-4.jsa", names.get(0), "the oldest went first");
    }
    assertFalse(Files.exists(archives.resolve("crawl-1000-java21-1-2-3-4.jsa.ok")), "with their marks");
  }

  @Test
  void aSymbolicLinkToTheLauncherFindsTheJarBesideTheLauncherAndHintsUseTheNameTyped() throws Exception {
    Path java = fakeJdk("jdk21", "21.0.2");
    Files.writeString(java, "#!/bin/sh\nprintf 'command=%s\\n' \"$SIEVECRAWL_COMMAND\"\n"
        + "for a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
    Path onPath = Files.createDirectories(dir.resolve("path"));
    Path link = Files.createSymbolicLink(onPath.resolve("sievecrawl"), Path.of("../other/sievecrawl"));
    Files.createDirectories(dir.resolve("other"));
    Files.createSymbolicLink(dir.resolve("other/sievecrawl"), launcher); // a chain of links, one of them relative
    ProcessBuilder builder = new ProcessBuilder(link.toString(), "plan");
    builder.environment().put("SIEVECRAWL_JAVA", java.toString());
    builder.environment().put("XDG_CACHE_HOME", cache.toString());
    builder.environment().put("SIEVECRAWL_CDS", "off");
    Process process = builder.redirectErrorStream(true).start();
    String printed = new String(process.getInputStream().readAllBytes());
    assertTrue(process.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), printed);
    List<String> args = printed.lines().toList();
    assertEquals(jar.toRealPath().toString(), Path.of(args.get(args.indexOf("-jar") + 1)).toRealPath().toString());
    assertEquals("command=" + link, args.get(0), "the name typed, for hints");
  }

  @Test
  void aGarbageCollectorNamedInTheOptionsWins() throws Exception {
    Path java = fakeJdk("jdk21", "21.0.2");
    List<String> args = launch(Map.of("SIEVECRAWL_JAVA", java.toString(), "SIEVECRAWL_OPTS", "-XX:+UseG1GC -Xmx1g"),
        "crawl");
    assertTrue(args.contains("-XX:+UseG1GC") && args.contains("-Xmx1g"), args.toString());
    assertFalse(args.contains("-XX:+UseSerialGC"), args.toString());
  }
}
