package io.sievecrawl.crawler.fetch;

import io.sievecrawl.config.HostPin;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import okhttp3.Dns;

/**
 * Resolves the host names the user pinned ({@code fetch.resolve}) to their addresses, and every other name through
 * {@code others}. A pinned host is the user's choice, so the private-address guard (in {@code others}) does not
 * apply to it.
 */
final class PinnedDns implements Dns {
  private final Map<String, List<InetAddress>> pinned = new HashMap<>();
  private final Dns others;

  PinnedDns(List<HostPin> pins, Dns others) {
    for (HostPin pin : pins) {
      pinned.putIfAbsent(pin.host(), List.of(pin.inetAddress()));
    }
    this.others = others;
  }

  @Override
  public List<InetAddress> lookup(String hostname) throws UnknownHostException {
    List<InetAddress> addresses = pinned.get(hostname.toLowerCase(Locale.ROOT));
    return addresses != null ? addresses : others.lookup(hostname);
  }
}
