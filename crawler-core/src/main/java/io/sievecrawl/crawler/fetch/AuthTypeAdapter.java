package io.sievecrawl.crawler.fetch;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * A trust manager that hands the JDK's the key exchange of a TLS 1.3 server as the JDK names it: Conscrypt calls it
 * "GENERIC", the JDK's own TLS "UNKNOWN", and the JDK's certificate checker refuses a name it does not know
 * ("Unknown authType: GENERIC"). Everything else goes to the trust manager given, unchanged.
 */
final class AuthTypeAdapter extends X509ExtendedTrustManager {
  private final X509TrustManager trust;
  private final X509ExtendedTrustManager extended; // the same, when it takes a socket or engine; else null

  AuthTypeAdapter(X509TrustManager trust) {
    this.trust = trust;
    this.extended = trust instanceof X509ExtendedTrustManager e ? e : null;
  }

  private static String asTheJdkNamesIt(String authType) {
    return "GENERIC".equals(authType) ? "UNKNOWN" : authType;
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    trust.checkServerTrusted(chain, asTheJdkNamesIt(authType));
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    if (extended == null) {
      checkServerTrusted(chain, authType);
    } else {
      extended.checkServerTrusted(chain, asTheJdkNamesIt(authType), socket);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    if (extended == null) {
      checkServerTrusted(chain, authType);
    } else {
      extended.checkServerTrusted(chain, asTheJdkNamesIt(authType), engine);
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    trust.checkClientTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    trust.checkClientTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    trust.checkClientTrusted(chain, authType);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return trust.getAcceptedIssuers();
  }
}
