package io.sievecrawl.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A host name pinned to an address ({@code fetch.resolve}, {@code --resolve}), written as curl writes it:
 * {@code HOST:PORT:ADDRESS}, the port a number or {@code *}, the address an IPv4 or IPv6 literal (brackets optional).
 * The crawler resolves the host to that address instead of asking DNS; it pins the host on every port (its resolver
 * sees host names, not ports), so two pins of one host must name one address.
 *
 * @param port the port the pin was written for, 0 for {@code *}
 */
public record HostPin(String host, int port, String address) {
  static final String FORM = "HOST:PORT:ADDRESS";
  private static final Pattern HOST = Pattern.compile("[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\\.?");
  private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");

  /**
   * A pin written as {@code HOST:PORT:ADDRESS}.
   *
   * @throws IllegalArgumentException naming the form, or what is wrong with the host, the port or the address
   */
  public static HostPin parse(String text) {
    int first = text.indexOf(':');
    int second = first < 0 ? -1 : text.indexOf(':', first + 1);
    if (second < 0) {
      throw new IllegalArgumentException("'" + text + "' must be " + FORM + ", e.g. example.com:443:192.0.2.10");
    }
    String host = text.substring(0, first).toLowerCase(Locale.ROOT);
    String port = text.substring(first + 1, second);
    String address = text.substring(second + 1);
    if (!HOST.matcher(host).matches() || host.length() > 253) {
      throw new IllegalArgumentException("'" + text + "': the host '" + host + "' is not a host name");
    }
    int portNumber;
    if (port.equals("*")) {
      portNumber = 0;
    } else {
      try {
        portNumber = Integer.parseInt(port);
      } catch (NumberFormatException e) {
        portNumber = -1;
      }
      if (portNumber < 1 || portNumber > 65_535) {
        throw new IllegalArgumentException("'" + text + "': the port must be 1 to 65535 or *, not '" + port + "'");
      }
    }
    if (address.startsWith("[") && address.endsWith("]")) {
      address = address.substring(1, address.length() - 1);
    }
    if (!IPV4.matcher(address).matches() && !isIpv6(address)) {
      throw new IllegalArgumentException("'" + text + "': the address '" + address + "' is not an IPv4 or IPv6"
          + " address");
    }
    return new HostPin(host.endsWith(".") ? host.substring(0, host.length() - 1) : host, portNumber, address);
  }

  private static boolean isIpv6(String address) {
    if (address.indexOf(':') < 0 || !address.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':'
        || c == '.')) {
      return false;
    }
    try {
      InetAddress.getByName(address); // an IPv6 literal: parsed, never looked up
      return true;
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** The address as a resolver returns it. */
  public InetAddress inetAddress() {
    try {
      return InetAddress.getByAddress(host, InetAddress.getByName(address).getAddress());
    } catch (UnknownHostException e) {
      throw new IllegalStateException("checked when parsed: " + address, e);
    }
  }

  @Override
  public String toString() {
    return host + ":" + (port == 0 ? "*" : Integer.toString(port)) + ":"
        + (address.indexOf(':') >= 0 ? "[" + address + "]" : address);
  }
}
