/**
 * Fetching over HTTP with OkHttp: start with {@link io.sievecrawl.crawler.fetch.PageFetcher}, which turns one URL into
 * a {@link io.sievecrawl.crawler.fetch.FetchResponse} (status, the headers that matter, the body up to its cap), or a
 * {@link io.sievecrawl.crawler.fetch.FailureCause} that says why not and whether waiting could help.
 *
 * <p>Its parts: the client built from the settings ({@code ClientWiring}), the GET asked for a page, a sitemap or a
 * requisite ({@code PageRequest}, {@code Reading}), and the exchange turned into a response ({@code ResponseReader}).
 *
 * <p>The client it builds, piece by piece:
 * <ul>
 *   <li>bodies read as they come, up to {@code fetch.max-body-size}, and decoded for parsing
 *       ({@code Bodies}, {@code ContentTypeHeader}, {@code HtmlSniffer});
 *   <li>cookies kept as a browser keeps them ({@code BoundedCookieJar}, saved as {@code CookiesTxt}); the user's
 *       headers, credentials only to the seeds' origins ({@code RequestHeaders});
 *   <li>where requests go: pinned host names ({@code PinnedDns}), the guard against the local network
 *       ({@code PrivateAddresses}), proxies chosen as curl chooses them ({@code ProxyRoutes}), the certificates
 *       trusted ({@code TlsTrust});
 *   <li>for archives, each exchange captured as it went over the wire ({@code CaptureInterceptor},
 *       {@code CaptureBuffer}, {@code Exchange}) and handed to an {@code ExchangeRecorder}, credentials masked
 *       ({@code CredentialMask});
 *   <li>a recrawl's conditional GET ({@code Revalidation}); the calls under way, so that a stop can cut them off
 *       ({@code CallTracker}).
 * </ul>
 */
package io.sievecrawl.crawler.fetch;
