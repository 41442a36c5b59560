package io.sievecrawl.app;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.sievecrawl.config.Values;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
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
 * whole maximum. After each young collection this looks at the old generation and asks for a full collection once it
 * has grown past what the last full collection left plus a margin (a quarter of that, at least {@link #MIN_MARGIN});
 * with a small live set that collection takes tens of milliseconds.
 *
 * <p>Why not the old generation's usage threshold: its notification fires on a crossing only, and the JVM may still
 * count the threshold as crossed after the full collection this asks for, so the next crossing went unnoticed until
 * the heap was full. The end of every collection is notified, so each young collection is looked at. Notifications
 * come one at a time on the JVM's notification thread, the only thread that reads or moves the ceiling.
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
  private final List<NotificationEmitter> collectors = new ArrayList<>();
  private final NotificationListener listener = this::onCollection;
  private volatile long ceiling;

  private HeapCeiling(MemoryPoolMXBean oldGeneration, long minMargin) {
    this.oldGeneration = oldGeneration;
    this.minMargin = minMargin;
    moveCeiling(oldGeneration.getUsage().getUsed());
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (collector instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(listener, null, null);
        collectors.add(emitter);
      }
    }
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
  }

  /** Whether this watches an old generation (the serial collector runs). */
  boolean isActive() {
    return oldGeneration != null;
  }

  /** The old generation's size past which a full collection is asked for; 0 when there is none. */
  long ceiling() {
    return ceiling;
  }

  private void onCollection(Notification notification, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
      return;
    }
    var info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
    if (info.getGcName().equals(SERIAL_OLD_COLLECTOR)) { // ours or the collector's own: it sets what is live
      moveCeiling(oldGeneration.getCollectionUsage().getUsed());
      return;
    }
    long used = oldGeneration.getUsage().getUsed();
    if (ceiling > 0 && used > ceiling) {
      System.gc(); // the serial collector's full collection; its own notification moves the ceiling
      log.debug("old generation at {}: collected, {} left", Values.formatSize(used),
          Values.formatSize(oldGeneration.getCollectionUsage().getUsed()));
    }
  }

  private void moveCeiling(long live) {
    long next = live + Math.max(minMargin, live / 4);
    long max = oldGeneration.getUsage().getMax();
    // Past the maximum the collector collects by itself; 0: no ceiling.
    ceiling = max >= 0 && next >= max ? 0 : next;
  }

  @Override
  public void close() {
    for (NotificationEmitter emitter : collectors) {
      try {
        emitter.removeNotificationListener(listener);
      } catch (ListenerNotFoundException e) {
        // already removed
      }
    }
    collectors.clear();
  }
}
