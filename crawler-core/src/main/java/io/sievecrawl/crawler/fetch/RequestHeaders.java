package io.sievecrawl.crawler.fetch;

import io.sievecrawl.config.RequestHeader;
import java.io.IOException;
import java.util.List;
import java.util.function.Predicate;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Puts the user's extra headers ({@code fetch.header}) on every request as it goes on the wire, after OkHttp has set
 * its own and the cookie jar's: a user's header replaces the crawler's of the same name ({@code Accept}), a user's
 * {@code Cookie} comes first, joined with the jar's cookies, and credentials ({@code Authorization},
 * {@code Cookie}) go only to the origins {@code takesCredentials} accepts (the seeds'), so that a link or a redirect
 * to another site, another port or plain http cannot carry them there.
 *
 * <p>A network interceptor: added before a {@link CaptureInterceptor}, it lets the WARC record the headers sent.
 */
final class RequestHeaders implements Interceptor {
  private final List<RequestHeader> headers;
  private final Predicate<String> takesCredentials;

  RequestHeaders(List<RequestHeader> headers, Predicate<String> takesCredentials) {
    this.headers = List.copyOf(headers);
    this.takesCredentials = takesCredentials;
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    Request.Builder sent = request.newBuilder();
    boolean credentialsAllowed = takesCredentials.test(originOf(request.url()));
    for (RequestHeader header : headers) {
      if (header.isCredential() && !credentialsAllowed) {
        continue;
      }
      String value = header.value();
      String jarCookies = header.name().equalsIgnoreCase("Cookie") ? request.header("Cookie") : null;
      sent.header(header.name(), jarCookies == null ? value : value + "; " + jarCookies);
    }
    return chain.proceed(sent.build());
  }

  /** {@code scheme://host[:port]} as {@link io.sievecrawl.crawler.url.Url#origin} writes it: default ports left out. */
  static String originOf(HttpUrl url) {
    String host = url.host().indexOf(':') >= 0 ? "[" + url.host() + "]" : url.host();
    boolean defaultPort = url.port() == HttpUrl.defaultPort(url.scheme());
    return url.scheme() + "://" + host + (defaultPort ? "" : ":" + url.port());
  }
}
