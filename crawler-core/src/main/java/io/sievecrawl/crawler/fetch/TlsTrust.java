package io.sievecrawl.crawler.fetch;

import io.sievecrawl.config.FetchSettings;
import io.sievecrawl.config.Setting;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.OkHttpClient;

/**
 * Which TLS certificates the crawl trusts: the JDK's certificate authorities, and those of a PEM file
 * ({@code fetch.ca-file}); or any certificate at all, for any host ({@code fetch.insecure-tls}).
 */
public final class TlsTrust {
  private static final String KEY = Setting.CA_FILE.key();

  private TlsTrust() {}

  /**
   * Checks the settings' CA file, so that a crawl with an unusable one does not start.
   *
   * @throws IllegalArgumentException naming the setting, the file and what is wrong with it
   */
  public static void check(FetchSettings settings) {
    if (!settings.caFile().isEmpty()) {
      withCaFile(Path.of(settings.caFile()));
    }
  }

  /**
   * Makes {@code builder} trust what the settings say, on the TLS library they choose ({@link TlsLibrary}); with
   * fetch.native-tls off and nothing to trust beyond the JDK's authorities, leaves OkHttp's own TLS as it is.
   */
  static OkHttpClient.Builder applyTo(OkHttpClient.Builder builder, FetchSettings settings) {
    X509TrustManager trust;
    if (settings.insecureTls()) {
      trust = new AnyCertificate();
      builder.hostnameVerifier((host, session) -> true);
    } else if (!settings.caFile().isEmpty()) {
      trust = withCaFile(Path.of(settings.caFile()));
    } else if (settings.nativeTls()) {
      trust = jdkTrust();
    } else {
      return builder;
    }
    return builder.sslSocketFactory(TlsLibrary.socketFactory(trust, settings.nativeTls()), trust);
  }

  /** The JDK's trust manager: its authorities, as OkHttp would use them. */
  private static X509TrustManager jdkTrust() {
    try {
      return defaultTrust();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no trust manager: " + e.getMessage(), e);
    }
  }

  /** A trust manager for the JDK's authorities and the certificates of {@code pemFile}. */
  static X509TrustManager withCaFile(Path pemFile) {
    Collection<? extends Certificate> extra;
    // Buffered: the certificate factory reads its stream a byte at a time, a system call each unbuffered.
    try (InputStream in = new BufferedInputStream(Files.newInputStream(pemFile))) {
      extra = CertificateFactory.getInstance("X.509").generateCertificates(in);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(KEY + ": " + pemFile + " does not exist");
    } catch (IOException e) {
      throw new IllegalArgumentException(KEY + ": cannot read " + pemFile + ": " + e.getMessage());
    } catch (CertificateException e) {
      throw new IllegalArgumentException(KEY + ": " + pemFile + " is not a PEM file of certificates: "
          + e.getMessage());
    }
    if (extra.isEmpty()) {
      throw new IllegalArgumentException(KEY + ": " + pemFile + " holds no certificate");
    }
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int n = 0;
      for (X509Certificate ca : defaultTrust().getAcceptedIssuers()) {
        store.setCertificateEntry("jdk-" + n++, ca);
      }
      for (Certificate ca : extra) {
        store.setCertificateEntry("ca-file-" + n++, ca);
      }
      return trustManager(store);
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot build a trust store: " + e.getMessage(), e);
    }
  }

  private static X509TrustManager defaultTrust() throws GeneralSecurityException {
    return trustManager(null);
  }

  private static X509TrustManager trustManager(KeyStore store) throws GeneralSecurityException {
    TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    for (TrustManager manager : factory.getTrustManagers()) {
      if (manager instanceof X509TrustManager x509) {
        return x509;
      }
    }
    throw new GeneralSecurityException("no X.509 trust manager");
  }

  /** Trusts every certificate: fetch.insecure-tls. */
  private static final class AnyCertificate implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
