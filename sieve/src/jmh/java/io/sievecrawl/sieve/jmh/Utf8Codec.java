package io.sievecrawl.sieve.jmh;

import io.sievecrawl.sieve.TaskCodec;
import java.nio.charset.StandardCharsets;

/** URL strings as UTF-8, the simplest task a frontier can hold. */
final class Utf8Codec implements TaskCodec<String> {
  @Override
  public byte[] encode(String task) {
    return task.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public String decode(byte[] bytes, int offset, int length) {
    return new String(bytes, offset, length, StandardCharsets.UTF_8);
  }
}
