package io.sievecrawl.crawler.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class JvmThreadCpuTest {
  @Test
  void readsUserAndSystemTicksAfterANameHoldingSpacesAndParentheses() {
    String stat = "4242 (C2 CompilerThre) S 1 4200 4200 0 -1 1077936192 1583 0 0 0 731 45 0 0 20 0 30 0 512 0 0";
    assertEquals(776, JvmThreadCpu.ticksOf(stat));
    assertEquals(12, JvmThreadCpu.ticksOf("7 (a (b) c) R 1 1 1 0 -1 0 0 0 0 0 5 7 0 0 20 0 1 0 9 0 0"));
  }

  @Test
  void tellsCompilerAndCollectorThreadsFromTheRest() {
    assertEquals(JvmThreadCpu.Kind.JIT, JvmThreadCpu.Kind.of("C2 CompilerThre"));
    assertEquals(JvmThreadCpu.Kind.JIT, JvmThreadCpu.Kind.of("C1 CompilerThre"));
    assertEquals(JvmThreadCpu.Kind.GC, JvmThreadCpu.Kind.of("VM Thread"));
    assertEquals(JvmThreadCpu.Kind.GC, JvmThreadCpu.Kind.of("GC Thread#0"));
    assertEquals(JvmThreadCpu.Kind.GC, JvmThreadCpu.Kind.of("G1 Conc#0"));
    assertEquals(JvmThreadCpu.Kind.OTHER, JvmThreadCpu.Kind.of("sievecrawl fet"));
    assertEquals(JvmThreadCpu.Kind.OTHER, JvmThreadCpu.Kind.of("VM Periodic Tas"));
  }

  /** Work done on this thread shows up in the rest, at least as much as the JVM itself counted for it. */
  @Test
  @EnabledOnOs(OS.LINUX)
  void workOnAJavaThreadCountsAsTheRest() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    JvmThreadCpu before = JvmThreadCpu.read();
    assertNotNull(before);
    long start = mx.getCurrentThreadCpuTime();
    long x = 0;
    while (mx.getCurrentThreadCpuTime() - start < 300_000_000L) { // 0.3 s of this thread's CPU
      x += Long.numberOfTrailingZeros(x + 1);
    }
    double spent = (mx.getCurrentThreadCpuTime() - start) / 1e9;
    JvmThreadCpu.Split split = JvmThreadCpu.read().since(before);
    assertTrue(x >= 0);
    assertTrue(split.otherSeconds() >= spent - 0.05, split + " against " + spent + " s on this thread");
    assertTrue(split.jitSeconds() >= 0 && split.gcSeconds() >= 0, split.toString());
  }
}
