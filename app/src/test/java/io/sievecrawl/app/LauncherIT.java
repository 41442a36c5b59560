package io.sievecrawl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher script ({@code src/main/sh/sievecrawl}) run by {@code /bin/sh}, with stand-in JDKs whose
 * {@code java} prints its path and the arguments it was given: which Java it picks, and the AOT cache it names.
 */
@DisabledOnOs(OS.WINDOWS) // a POSIX shell script
class LauncherIT {
  @TempDir
  Path dir;
  private Path launcher;
  private Path jar;
  private Path xdgCache;

  @BeforeEach
  void install() throws IOException {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    launcher = Files.copy(Path.of("src/main/sh/sievecrawl"), bin.resolve("sievecrawl"));
    executable(launcher);
    jar = Files.writeString(bin.resolve("sievecrawl.jar"), "not really a jar");
    xdgCache = dir.resolve("cache");
  }

  /** A JDK folder whose release file says {@code version} and whose java prints one argument per line. */
  private Path fakeJdk(String name, String version) throws IOException {
    Path home = Files.createDirectories(dir.resolve(name));
    Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
    Files.createDirectories(home.resolve("lib"));
    Files.writeString(home.resolve("lib/modules"), "modules of " + name);
    Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
    Files.writeString(java, "#!/bin/sh\nprintf 'java=%s\\n' \"$0\"\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
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
    builder.environment().remove("SIEVECRAWL_AOT");
    builder.environment().put("XDG_CACHE_HOME", xdgCache.toString());
    builder.environment().putAll(env);
    Path output = dir.resolve("launcher-output.txt");
    Process process = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the launcher did not finish");
    String printed = Files.readString(output);
    assertEquals(0, process.exitValue(), printed);
    return printed.lines().toList();
  }

  private static String cacheOf(List<String> javaArgs) {
    return javaArgs.stream().filter(a -> a.startsWith("-XX:AOTCache=")).findFirst()
        .map(a -> a.substring("-XX:AOTCache=".length())).orElse(null);
  }

  /** The java the launcher ran: the fake one prints its own path first. */
  private static String javaOf(List<String> printed) {
    return printed.get(0).substring("java=".length());
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
    assertEquals(java.toString(), javaOf(args));
  }

  @Test
  void aJava25RunsWithTheAotCacheBesideTheJarAndSilencesItsChecks() throws Exception {
    Path cache = Files.writeString(jar.resolveSibling("sievecrawl.aot"), "made by the build");
    List<String> args = launch(Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk25", "25.0.1").toString()), "crawl", "s.txt");
    assertEquals(cache.toRealPath().toString(), Path.of(cacheOf(args)).toRealPath().toString());
    assertTrue(args.contains("-Xlog:aot=off") && args.contains("-Xlog:cds=off"), args.toString());
    assertTrue(args.indexOf("-XX:AOTCache=" + cacheOf(args)) < args.indexOf("-jar"), "a JVM option, before -jar");
    assertTrue(args.indexOf("--enable-native-access=ALL-UNNAMED") < args.indexOf("-jar")
        && args.contains("--enable-native-access=ALL-UNNAMED"), "as the training had it: " + args);
  }

  @Test
  void aJavaOlderThan25IsNotToldOfTheCache() throws Exception {
    Files.writeString(jar.resolveSibling("sievecrawl.aot"), "made by the build");
    List<String> args = launch(Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk21", "21.0.2").toString()), "crawl", "s.txt");
    assertNull(cacheOf(args), args.toString()); // JDK 21 would refuse to start on an unknown -XX option
    assertFalse(args.stream().anyMatch(a -> a.contains("aot") || a.contains("native-access")), args.toString());
  }

  @Test
  void withoutACacheOrWithSievecrawlAotOffTheJvmIsToldOfNone() throws Exception {
    Path java = fakeJdk("jdk25", "25.0.1");
    assertNull(cacheOf(launch(Map.of("SIEVECRAWL_JAVA", java.toString()), "crawl")), "a build made with -Daot.skip");
    Files.writeString(jar.resolveSibling("sievecrawl.aot"), "made by the build");
    assertNull(cacheOf(launch(Map.of("SIEVECRAWL_JAVA", java.toString(), "SIEVECRAWL_AOT", "off"), "crawl")));
  }

  @Test
  void aCacheInAFolderWithSpacesIsOneArgument() throws Exception {
    Path spaced = Files.createDirectories(dir.resolve("my tools"));
    Path moved = Files.copy(launcher, spaced.resolve("sievecrawl"));
    executable(moved);
    Files.writeString(spaced.resolve("sievecrawl.jar"), "not really a jar");
    Path cache = Files.writeString(spaced.resolve("sievecrawl.aot"), "made by the build");
    launcher = moved;
    List<String> args = launch(Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk25", "25.0.1").toString()), "crawl");
    assertEquals(cache.toRealPath().toString(), Path.of(cacheOf(args)).toRealPath().toString());
  }

  @Test
  void removesTheClassDataArchivesOfEarlierBuilds() throws Exception {
    Path archives = Files.createDirectories(xdgCache.resolve("sievecrawl"));
    Files.writeString(archives.resolve("crawl-1234-java25-1-2-3-4.jsa"), "an archive of an earlier build");
    Files.writeString(archives.resolve("crawl-1234-java25-1-2-3-4.jsa.ok"), "");
    launch(Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk21", "21.0.2").toString()), "crawl");
    assertFalse(Files.exists(archives), "the archives and their folder are gone");

    Path other = Files.writeString(Files.createDirectories(archives).resolve("notes.txt"), "not ours");
    Files.writeString(archives.resolve("plan-1-java21.jsa"), "an archive of an earlier build");
    launch(Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk21", "21.0.2").toString()), "plan");
    assertTrue(Files.exists(other), "a file the launcher did not write stays, and its folder");
    assertFalse(Files.exists(archives.resolve("plan-1-java21.jsa")));
  }

  @Test
  void readsAReleaseFileWithoutAFinalNewline() throws Exception {
    Path java = fakeJdk("jdk25", "25.0.1");
    Files.writeString(java.getParent().getParent().resolve("release"), "JAVA_VERSION=\"25.0.1\"");
    Files.writeString(jar.resolveSibling("sievecrawl.aot"), "made by the build");
    assertNotNull(cacheOf(launch(Map.of("SIEVECRAWL_JAVA", java.toString()), "crawl")), "read as Java 25");
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
    builder.environment().put("XDG_CACHE_HOME", xdgCache.toString());
    Process process = builder.redirectErrorStream(true).start();
    String printed = new String(process.getInputStream().readAllBytes());
    assertTrue(process.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), printed);
    List<String> args = printed.lines().toList();
    assertEquals(jar.toRealPath().toString(), Path.of(args.get(args.indexOf("-jar") + 1)).toRealPath().toString());
    assertEquals("command=" + link, args.get(0), "the name typed, for hints");
  }

  @Test
  void runsWithoutOnStackReplacementUnlessTheOptionsAskForIt() throws Exception {
    Path java = fakeJdk("jdk21", "21.0.2");
    List<String> args = launch(Map.of("SIEVECRAWL_JAVA", java.toString()), "crawl");
    assertJvmOption(args, "-XX:-UseOnStackReplacement");
    Files.writeString(jar.resolveSibling("sievecrawl.aot"), "made by the build");
    List<String> withCache = launch(Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk25", "25.0.1").toString()), "crawl");
    assertJvmOption(withCache, "-XX:-UseOnStackReplacement");
    List<String> asked = launch(Map.of("SIEVECRAWL_JAVA", java.toString(),
        "SIEVECRAWL_OPTS", "-XX:+UseOnStackReplacement"), "crawl");
    assertTrue(asked.indexOf("-XX:-UseOnStackReplacement") < asked.indexOf("-XX:+UseOnStackReplacement"),
        "the JVM takes the last of a flag given twice: the user's; " + asked);
  }

  @Test
  void asksTheCompilationPolicyAboutAMethodEvery1024CallsUnlessTheOptionsSayOtherwise() throws Exception {
    String every1024 = "-XX:Tier0InvokeNotifyFreqLog=10";
    List<String> args = launch(Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk21", "21.0.2").toString()), "crawl");
    assertJvmOption(args, every1024);
    Files.writeString(jar.resolveSibling("sievecrawl.aot"), "made by the build");
    List<String> withCache = launch(Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk25", "25.0.1").toString()), "crawl");
    assertJvmOption(withCache, every1024);
    List<String> asked = launch(Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk25", "25.0.1").toString(),
        "SIEVECRAWL_OPTS", "-XX:Tier0InvokeNotifyFreqLog=7"), "crawl");
    assertTrue(asked.indexOf(every1024) < asked.indexOf("-XX:Tier0InvokeNotifyFreqLog=7"),
        "the user's comes last and wins: " + asked);
  }

  @Test
  void aJava22OrNewerExitsWithoutWaitingForThreadsInNativeCodeAndAJava21IsNotToldOfIt() throws Exception {
    String noWait = "-XX:UserThreadWaitAttemptsAtExit=0";
    List<String> java25 = launch(Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk25", "25.0.1").toString()), "crawl");
    assertJvmOption(java25, noWait);
    Files.writeString(jar.resolveSibling("sievecrawl.aot"), "made by the build");
    List<String> withCache = launch(Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk25", "25.0.1").toString()), "crawl");
    assertJvmOption(withCache, noWait);
    List<String> java22 = launch(Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk22", "22.0.2").toString()), "crawl");
    assertTrue(java22.contains(noWait), java22.toString());
    List<String> java21 = launch(Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk21", "21.0.2").toString()), "crawl");
    assertFalse(java21.stream().anyMatch(a -> a.contains("UserThreadWaitAttemptsAtExit")), // 21 would not start
        java21.toString());
    List<String> asked = launch(Map.of("SIEVECRAWL_JAVA", fakeJdk("jdk25", "25.0.1").toString(),
        "SIEVECRAWL_OPTS", "-XX:UserThreadWaitAttemptsAtExit=30"), "crawl");
    assertTrue(asked.indexOf(noWait) < asked.indexOf("-XX:UserThreadWaitAttemptsAtExit=30"),
        "the user's comes last and wins: " + asked);
  }

  @Test
  void aGarbageCollectorNamedInTheOptionsWins() throws Exception {
    Path java = fakeJdk("jdk21", "21.0.2");
    List<String> args = launch(Map.of("SIEVECRAWL_JAVA", java.toString(), "SIEVECRAWL_OPTS", "-XX:+UseG1GC -Xmx1g"),
        "crawl");
    assertTrue(args.contains("-XX:+UseG1GC") && args.contains("-Xmx1g"), args.toString());
    assertFalse(args.contains("-XX:+UseSerialGC"), args.toString());
  }

  /** Asserts that {@code option} is given to the JVM: after the java command, before {@code -jar}. */
  private static void assertJvmOption(List<String> command, String option) {
    assertTrue(command.indexOf(option) > 0 && command.indexOf(option) < command.indexOf("-jar"), command.toString());
  }
}
