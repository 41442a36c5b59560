package io.sievecrawl.crawler.fetch;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Why a request failed, in words a user can act on, and whether waiting could help. A refused connection, an
 * unknown host or an untrusted certificate will not go away in the next minutes: retrying them only delays the
 * crawl, so they fail fast.
 *
 * @param description one line: "connection refused", "TLS certificate not trusted: PKIX path building failed ..."
 * @param permanent whether retrying soon is pointless
 * @param tls whether it is a certificate or handshake failure
 */
public record FailureCause(String description, boolean permanent, boolean tls) {

  /** The cause of {@code e}, looking through its chain of causes. */
  public static FailureCause of(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SSLPeerUnverifiedException || t instanceof CertificateException
          || (t instanceof SSLHandshakeException && isCertificateProblem(t))) {
        return new FailureCause("TLS certificate not trusted: " + rootMessage(t), true, true);
      }
      if (t instanceof SSLHandshakeException) {
        return new FailureCause("TLS handshake failed: " + rootMessage(t), true, true);
      }
      if (t instanceof SSLException && isPlainTextAnswer(t.getMessage())) {
        // A server that answered the handshake in plain text: an https URL on an http port.
        return new FailureCause("the server does not speak TLS on this port: " + oneLine(t.getMessage()), true, true);
      }
      if (t instanceof UnknownHostException) {
        return new FailureCause("unknown host " + t.getMessage(), true, false);
      }
      if (t instanceof NoRouteToHostException) {
        return new FailureCause("no route to host", true, false);
      }
      if (t instanceof ConnectException) {
        return new FailureCause("connection refused (" + oneLine(t.getMessage()) + ")", true, false);
      }
    }
    return new FailureCause(e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + oneLine(e.getMessage())),
        false, false);
  }

  /** The JDK's words, and Conscrypt's, for a handshake answered in plain text. */
  private static boolean isPlainTextAnswer(String message) {
    String m = String.valueOf(message);
    return m.contains("nrecognized SSL message") || m.contains("Unable to parse TLS packet header");
  }

  private static boolean isCertificateProblem(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof CertificateException || String.valueOf(c.getMessage()).contains("PKIX")) {
        return true;
      }
    }
    return false;
  }

  private static String rootMessage(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return oneLine(root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage());
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.replaceAll("\\s+", " ").strip();
  }
}
