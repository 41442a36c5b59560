package io.sievecrawl.config;

import java.time.Duration;
import java.util.List;

/**
 * How each request is made: the {@code fetch.*} keys.
 *
 * @param userAgent the User-Agent, without the contact ({@code fetch.user-agent}); see {@link #userAgentHeader()}
 * @param contact where site owners can reach whoever runs the crawl, or empty ({@code fetch.contact})
 * @param headers the extra headers every request carries, in the order given ({@code fetch.header})
 * @param connectTimeout time allowed to open a connection ({@code fetch.connect-timeout})
 * @param readTimeout time allowed between two reads of a response ({@code fetch.read-timeout})
 * @param callTimeout time allowed for a whole request ({@code fetch.call-timeout})
 * @param maxBodySize the largest body read, in bytes ({@code fetch.max-body-size})
 * @param maxRedirects redirect hops followed from one URL ({@code fetch.max-redirects})
 * @param maxRetries retries after a 5xx, a 429 or a network error ({@code fetch.max-retries})
 * @param retryBackoff the wait before the first retry, doubled for each further one ({@code fetch.retry-backoff})
 * @param maxRetryAfter the longest Retry-After waited for ({@code fetch.max-retry-after})
 * @param proxy empty (the environment's proxies), {@code none}, or an HTTP proxy URL without credentials
 *     ({@code fetch.proxy})
 * @param caFile a PEM file of CA certificates to trust besides the JDK's, or empty ({@code fetch.ca-file})
 * @param pins host names pinned to addresses ({@code fetch.resolve})
 * @param insecureTls whether any TLS certificate is accepted ({@code fetch.insecure-tls})
 * @param nativeTls whether TLS goes through BoringSSL (Conscrypt) where its native library loads
 *     ({@code fetch.native-tls})
 * @param cookies whether the cookies sites set are kept and sent back ({@code fetch.cookies})
 */
public record FetchSettings(String userAgent, String contact, List<RequestHeader> headers, Duration connectTimeout,
    Duration readTimeout, Duration callTimeout, long maxBodySize, int maxRedirects, int maxRetries,
    Duration retryBackoff, Duration maxRetryAfter, String proxy, String caFile, List<HostPin> pins,
    boolean insecureTls, boolean nativeTls, boolean cookies) {

  public FetchSettings {
    headers = List.copyOf(headers);
    pins = List.copyOf(pins);
  }

  static FetchSettings from(CrawlSettings s) {
    return new FetchSettings(s.get(Setting.USER_AGENT), s.get(Setting.CONTACT), s.get(Setting.HEADER),
        s.get(Setting.CONNECT_TIMEOUT), s.get(Setting.READ_TIMEOUT), s.get(Setting.CALL_TIMEOUT),
        s.get(Setting.MAX_BODY_SIZE), s.get(Setting.MAX_REDIRECTS), s.get(Setting.MAX_RETRIES),
        s.get(Setting.RETRY_BACKOFF), s.get(Setting.MAX_RETRY_AFTER), s.get(Setting.PROXY), s.get(Setting.CA_FILE),
        s.get(Setting.RESOLVE), s.get(Setting.INSECURE_TLS), s.get(Setting.NATIVE_TLS),
        s.get(Setting.COOKIES));
  }

  /** The User-Agent header sent: {@link #userAgent}, with {@code (+contact)} when a contact is set. */
  public String userAgentHeader() {
    return contact.isEmpty() || userAgent.contains(contact) ? userAgent : userAgent + " (+" + contact + ")";
  }
}
