package io.sievecrawl.app;

import io.sievecrawl.config.Values;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryNotificationInfo;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the serial collector's old generation near what a crawl keeps alive.
 *
 * <p>The serial collector (the launcher's choice on two CPUs or fewer) grows its old generation up to the maximum
 * heap, by default a quarter of the machine's memory, before it collects it once. A crawl promotes a steady trickle
 * of objects that live a little while and then die (pages in flight, the scheduler's windows of tasks), so without
 * this a crawl of 300,000 pages held 1.1 GB of heap, nearly all of it garbage, and a crawl of days would hold the
 * whole maximum. A usage threshold on the old generation asks for a full collection once it grows past what the last
 * full collection left plus a margin (a quarter of that, at least {@link #MIN_MARGIN}); with a small live set that
 * collection takes tens of milliseconds.
 *
 * <p>Other collectors bound their old generation themselves; there, and when the heap is too small for the margin,
 * this does nothing.
 */
final class HeapCeiling implements AutoCloseable {
  static final long MIN_MARGIN = 128L << 20;
  private static final String SERIAL_OLD_COLLECTOR = "MarkSweepCompact";
  private static final Logger log = LoggerFactory.getLogger(HeapCeiling.class);

  private final MemoryPoolMXBean oldGeneration;
  private final long minMargin;
  private final NotificationEmitter emitter;
  private final NotificationListener listener = this::onNotification;

  private HeapCeiling(MemoryPoolMXBean oldGeneration, long minMargin) {
    this.oldGeneration = oldGeneration;
    this.minMargin = minMargin;
    this.emitter = (NotificationEmitter) ManagementFactory.getMemoryMXBean();
    emitter.addNotificationListener(listener, null, null);
    arm(oldGeneration.getUsage().getUsed());
  }

  /** Watches the old generation if this JVM runs the serial collector; closing it stops watching. */
  static HeapCeiling install() {
    return install(MIN_MARGIN);
  }

  static HeapCeiling install(long minMargin) {
    boolean serial = ManagementFactory.getGarbageCollectorMXBeans().stream()
        .anyMatch(gc -> gc.getName().equals(SERIAL_OLD_COLLECTOR));
    if (!serial) {
      return new HeapCeiling();
    }
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isUsageThresholdSupported()) { // not eden nor survivors
        return new HeapCeiling(pool, minMargin);
      }
    }
    return new HeapCeiling();
  }

  private HeapCeiling() { // does nothing
    this.oldGeneration = null;
    this.minMargin = 0;
    this.emitter = null;
  }

  /** Whether this watches an old generation (the serial collector runs). */
  boolean isActive() {
    return oldGeneration != null;
  }

  private void onNotification(Notification notification, Object handback) {
    if (!MemoryNotificationInfo.MEMORY_THRESHOLD_EXCEEDED.equals(notification.getType())) {
      return;
    }
    MemoryNotificationInfo info = MemoryNotificationInfo.from((CompositeData) notification.getUserData());
    if (!info.getPoolName().equals(oldGeneration.getName())) {
      return;
    }
    System.gc(); // the serial collector's full collection
    long live = oldGeneration.getCollectionUsage().getUsed();
    log.debug("old generation at {}: collected, {} left", Values.formatSize(info.getUsage().getUsed()),
        Values.formatSize(live));
    arm(live);
  }

  private void arm(long live) {
    long threshold = live + Math.max(minMargin, live / 4);
    long max = oldGeneration.getUsage().getMax();
    // Past the maximum the collector collects by itself; 0 turns the threshold off.
    oldGeneration.setUsageThreshold(max >= 0 && threshold >= max ? 0 : threshold);
  }

  @Override
  public void close() {
    if (oldGeneration == null) {
      return;
    }
    try {
      emitter.removeNotificationListener(listener);
    } catch (ListenerNotFoundException e) {
      // already removed
    }
    oldGeneration.setUsageThreshold(0);
  }
}
