package io.sievecrawl.sieve;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Takes tasks out of a frontier the way tests need, queue by queue; tasks that are plain strings. */
public final class Frontiers {
  /** Tasks that are their URL, in UTF-8. */
  public static final TaskCodec<String> STRINGS = new TaskCodec<>() {
    @Override
    public byte[] encode(String task) {
      return task.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String decode(byte[] bytes, int offset, int length) {
      return new String(bytes, offset, length, StandardCharsets.UTF_8);
    }
  };

  private Frontiers() {}

  /** One task of the queue first in line (which goes back to the end of the line), or {@code null} if none waits. */
  public static <T> Claim<T> takeOne(Frontier<T> frontier) {
    String queue = frontier.nextQueue();
    if (queue == null) {
      return null;
    }
    Claim<T> claim = frontier.poll(queue);
    frontier.releaseQueue(queue);
    return claim;
  }

  /** Every waiting task, claimed queue by queue in the order the queues come out of line, each queue in order. */
  public static <T> Map<String, List<T>> drainByQueue(Frontier<T> frontier) {
    Map<String, List<T>> byQueue = new LinkedHashMap<>();
    for (String queue = frontier.nextQueue(); queue != null; queue = frontier.nextQueue()) {
      List<T> tasks = byQueue.computeIfAbsent(queue, q -> new ArrayList<>());
      for (Claim<T> claim = frontier.poll(queue); claim != null; claim = frontier.poll(queue)) {
        tasks.add(claim.task());
      }
      frontier.releaseQueue(queue);
    }
    return byQueue;
  }

  /** Every waiting task, as {@link #drainByQueue} claims them. */
  public static <T> List<T> drain(Frontier<T> frontier) {
    List<T> all = new ArrayList<>();
    drainByQueue(frontier).values().forEach(all::addAll);
    return all;
  }
}
