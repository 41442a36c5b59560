package io.sievecrawl.config;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Space-separated {@link HostPin}s, {@code HOST:PORT:ADDRESS}; one host takes one address. */
record PinsType() implements ValueType<List<HostPin>> {

  @Override
  public List<HostPin> parse(String text) {
    String t = text.trim();
    if (t.isEmpty()) {
      return List.of();
    }
    List<HostPin> pins = Arrays.stream(t.split("\\s+")).map(HostPin::parse).toList();
    Map<String, String> addressOf = new HashMap<>();
    for (HostPin pin : pins) {
      String other = addressOf.putIfAbsent(pin.host(), pin.address());
      if (other != null && !other.equals(pin.address())) {
        throw new IllegalArgumentException(pin.host() + " is pinned to " + other + " and to " + pin.address()
            + "; a pin holds for every port, so one host takes one address");
      }
    }
    return pins;
  }

  @Override
  public void check(List<HostPin> value) {
  }

  @Override
  public String format(List<HostPin> value) {
    return value.stream().map(HostPin::toString).collect(Collectors.joining(" "));
  }

  @Override
  public List<String> configValues(List<HostPin> value, boolean hide) {
    return ValueChecks.quoted(format(value));
  }

  @Override
  public String description() {
    return "space-separated " + HostPin.FORM;
  }

  @Override
  public List<HostPin> cast(Object value) {
    return ValueChecks.listOf(value, HostPin.class, this, "must be a list of host pins");
  }
}
