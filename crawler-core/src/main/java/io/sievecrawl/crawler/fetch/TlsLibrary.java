package io.sievecrawl.crawler.fetch;

import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.SecureRandom;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.conscrypt.Conscrypt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS code the crawl's connections run on: BoringSSL through Conscrypt where its native library loads here
 * (fetch.native-tls, on by default), the JDK's own (JSSE) otherwise.
 */
final class TlsLibrary {
  /*
   * Why BoringSSL. A broad crawl over https spends more CPU a page than over http: the JDK's TLS handshakes run in
   * the interpreter while the crawl is young, the JIT compiles the handshake and record code (a fifth of its work),
   * and the record layer decrypts in Java frames around the AES-GCM intrinsics. BoringSSL does all of that in native
   * code, compiled once; measured on the broad bench (crawler-core/README.md, issue 38).
   *
   * When. Conscrypt's library is loaded (extracted by Conscrypt into the temporary directory, then loaded) at the
   * crawl's first https connection, not at start: it costs about 0.3 s of CPU, which a crawl of http sites never
   * pays. The threads that make the first https connections wait for it together (a class holder).
   *
   * Fallback. The jar holds Conscrypt's library for Linux and macOS on x86-64 and ARM and for Windows on x86-64;
   * on another platform (a musl libc, 32-bit) or where the library cannot load (a temporary directory mounted
   * noexec), the log says so once and the JDK's TLS is used: the same protocol versions and certificate checks,
   * more CPU.
   *
   * Trust. Both libraries check certificates with the same X509TrustManager (the JDK's authorities, fetch.ca-file,
   * or fetch.insecure-tls) and OkHttp checks the host name itself, so a certificate is refused or accepted alike.
   */
  private static final Logger log = LoggerFactory.getLogger(TlsLibrary.class);

  private TlsLibrary() {}

  /**
   * A socket factory for connections that trust {@code trust}, on BoringSSL when {@code nativeTls} and its library
   * loads here, on the JDK's TLS otherwise. The library is chosen when the first socket is made.
   */
  static SSLSocketFactory socketFactory(X509TrustManager trust, boolean nativeTls) {
    return new DeferredSocketFactory(() -> {
      Provider boringSsl = nativeTls ? NativeProvider.PROVIDER : null;
      return boringSsl == null ? context(null, trust) : context(boringSsl, new AuthTypeAdapter(trust));
    });
  }

  private static SSLSocketFactory context(Provider provider, X509TrustManager trust) {
    try {
      SSLContext context = provider == null ? SSLContext.getInstance("TLS") : SSLContext.getInstance("TLS", provider);
      context.init(null, new TrustManager[] {trust}, new SecureRandom());
      return context.getSocketFactory();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no TLS context: " + e.getMessage(), e);
    }
  }

  /** Conscrypt's provider, or null where its native library does not load (said once, in the log). */
  private static final class NativeProvider {
    static final Provider PROVIDER = load();

    private static Provider load() {
      try {
        Conscrypt.checkAvailability();
        Provider provider = Conscrypt.newProvider();
        Conscrypt.Version v = Conscrypt.version();
        log.info("TLS: BoringSSL, through Conscrypt {}.{}.{}", v.major(), v.minor(), v.patch());
        return provider;
      } catch (Throwable e) { // UnsatisfiedLinkError and its kin: no library for this platform, or it cannot load
        log.warn("TLS: Conscrypt's native library does not load here ({}): the JDK's TLS is used, which costs"
            + " more CPU a page; fetch.native-tls=false chooses it without trying", oneLine(e));
        return null;
      }
    }

    private static String oneLine(Throwable e) {
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
      return message.replaceAll("\\s+", " ").strip();
    }
  }
}
