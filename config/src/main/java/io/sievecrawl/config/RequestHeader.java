package io.sievecrawl.config;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * An extra header the user has every request carry ({@code fetch.header}, {@code --header}): a name that is an
 * RFC 9110 token and a value of printable ASCII. Headers the crawler must set itself are refused, each with the
 * reason.
 */
public record RequestHeader(String name, String value) {
  private static final Map<String, String> REFUSED = Map.ofEntries(
      Map.entry("host", "is taken from each URL"),
      Map.entry("user-agent", "is set by " + Setting.USER_AGENT.key() + " (and " + Setting.CONTACT.key() + ")"),
      Map.entry("accept-encoding", "is set by the crawler, which decodes what it accepts (gzip, deflate)"),
      Map.entry("proxy-authorization", "is taken from the https_proxy or http_proxy environment variable"),
      Map.entry("content-length", "belongs to the request's framing, which the crawler sets"),
      Map.entry("transfer-encoding", "belongs to the request's framing, which the crawler sets"),
      Map.entry("connection", "belongs to the connection, which the crawler manages"),
      Map.entry("keep-alive", "belongs to the connection, which the crawler manages"),
      Map.entry("proxy-connection", "belongs to the connection, which the crawler manages"),
      Map.entry("upgrade", "belongs to the connection, which the crawler manages"),
      Map.entry("te", "belongs to the connection, which the crawler manages"),
      Map.entry("trailer", "belongs to the request's framing, which the crawler sets"));

  /** The form of a header, for error messages. */
  static final String FORM = "NAME: VALUE";

  /** @throws IllegalArgumentException saying what is wrong with the name or the value */
  public RequestHeader {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    if (name.isEmpty() || !name.chars().allMatch(RequestHeader::isTokenChar)) {
      throw new IllegalArgumentException("the header name '" + name + "' must be letters, digits and"
          + " !#$%&'*+-.^_`|~ (an HTTP token)");
    }
    String refusal = REFUSED.get(name.toLowerCase(Locale.ROOT));
    if (refusal != null) {
      throw new IllegalArgumentException("the " + name + " header " + refusal);
    }
    if (!value.chars().allMatch(c -> c == '\t' || (c >= 0x20 && c <= 0x7e))) {
      throw new IllegalArgumentException("the value of the " + name + " header must be printable ASCII");
    }
  }

  /**
   * A header written as {@code NAME: VALUE}; white space around the value is dropped.
   *
   * @throws IllegalArgumentException naming the expected form, or what is wrong with the name or the value
   */
  public static RequestHeader parse(String text) {
    int colon = text.indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("must be " + FORM + ", e.g. 'Accept-Language: fr'");
    }
    return new RequestHeader(text.substring(0, colon).strip(), text.substring(colon + 1).strip());
  }

  /**
   * Whether the header carries credentials ({@code Authorization}, {@code Cookie}): it goes only to the seeds'
   * hosts and its value is hidden where settings are shown.
   */
  public boolean isCredential() {
    return name.equalsIgnoreCase("Authorization") || name.equalsIgnoreCase("Cookie");
  }

  /** Whether this header and {@code other} have the same name (names are case-insensitive). */
  public boolean sameName(RequestHeader other) {
    return name.equalsIgnoreCase(other.name);
  }

  /** {@code NAME: VALUE}, as a config file or the command line gives it. */
  @Override
  public String toString() {
    return name + ": " + value;
  }

  /** {@code NAME: VALUE}, or {@code NAME: <hidden>} for credentials: for logs and WARC files. */
  public String shown() {
    return isCredential() ? name + ": <hidden>" : toString();
  }

  private static boolean isTokenChar(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
  }
}
