package io.sievecrawl.crawler.fetch;

import io.sievecrawl.config.Setting;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import okhttp3.Dns;

/**
 * Keeps a crawl that follows links anywhere out of the local network: a host that resolves only to loopback,
 * private, link-local or unspecified addresses is refused, unless it may be local (a seed's host). A public page
 * linking or redirecting to {@code http://internal.corp/} or {@code http://169.254.169.254/} must not make the
 * crawler fetch it.
 *
 * <p>{@link #asDns} guards host names when they are resolved; {@link #isLocalLiteral} catches IP literals and
 * {@code localhost} names, which are never resolved.
 */
public final class PrivateAddresses {
  private PrivateAddresses() {}

  /** Whether {@code address} is loopback, private (RFC 1918, RFC 4193), link-local, CGNAT or unspecified. */
  public static boolean isLocal(InetAddress address) {
    if (address.isLoopbackAddress() || address.isSiteLocalAddress() || address.isLinkLocalAddress()
        || address.isAnyLocalAddress() || address.isMulticastAddress()) {
      return true;
    }
    byte[] b = address.getAddress();
    if (address instanceof Inet4Address) {
      int first = b[0] & 0xFF;
      int second = b[1] & 0xFF;
      return first == 0 || (first == 100 && second >= 64 && second < 128); // "this network", CGNAT 100.64/10
    }
    if (address instanceof Inet6Address) {
      return (b[0] & 0xFE) == 0xFC; // unique local fc00::/7
    }
    return false;
  }

  /**
   * Whether {@code host} (as normalized URLs write it: lower case, IPv6 in brackets) names a local address without
   * any lookup: {@code localhost}, {@code *.localhost}, or a local IP literal.
   */
  public static boolean isLocalLiteral(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    if (h.equals("localhost") || h.endsWith(".localhost")) {
      return true;
    }
    boolean ipv6 = h.startsWith("[") && h.endsWith("]");
    boolean ipv4 = !ipv6 && !h.isEmpty() && h.chars().allMatch(c -> (c >= '0' && c <= '9') || c == '.');
    if (!ipv4 && !ipv6) {
      return false;
    }
    try {
      return isLocal(InetAddress.getByName(ipv6 ? h.substring(1, h.length() - 1) : h)); // a literal: no lookup
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /**
   * A resolver that refuses hosts resolving only to local addresses, unless {@code mayBeLocal} accepts the host;
   * local addresses of a host that also has public ones are dropped.
   */
  public static Dns asDns(Predicate<String> mayBeLocal) {
    return hostname -> {
      List<InetAddress> all = Dns.SYSTEM.lookup(hostname);
      if (mayBeLocal.test(hostname)) {
        return all;
      }
      List<InetAddress> global = new ArrayList<>();
      for (InetAddress a : all) {
        if (!isLocal(a)) {
          global.add(a);
        }
      }
      if (global.isEmpty()) {
        throw new UnknownHostException(hostname + " resolves only to local addresses (loopback, private, link-local);"
            + " set " + Setting.ALLOW_PRIVATE_ADDRESSES.key() + " = true to crawl it");
      }
      return global;
    };
  }
}
