package io.sievecrawl.crawler.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.function.Supplier;
import javax.net.ssl.SSLSocketFactory;

/**
 * An SSLSocketFactory made when its first socket is: so that a TLS library is loaded only by a crawl that speaks
 * TLS ({@link TlsLibrary}). Thread-safe; the factory is made once.
 */
final class DeferredSocketFactory extends SSLSocketFactory {
  private final Supplier<SSLSocketFactory> make;
  private volatile SSLSocketFactory made;

  DeferredSocketFactory(Supplier<SSLSocketFactory> make) {
    this.make = make;
  }

  private SSLSocketFactory factory() {
    SSLSocketFactory factory = made;
    if (factory == null) {
      synchronized (this) {
        factory = made;
        if (factory == null) {
          made = factory = make.get();
        }
      }
    }
    return factory;
  }

  @Override
  public String[] getDefaultCipherSuites() {
    return factory().getDefaultCipherSuites();
  }

  @Override
  public String[] getSupportedCipherSuites() {
    return factory().getSupportedCipherSuites();
  }

  @Override
  public Socket createSocket(Socket socket, String host, int port, boolean autoClose) throws IOException {
    return factory().createSocket(socket, host, port, autoClose);
  }

  @Override
  public Socket createSocket(Socket socket, InputStream consumed, boolean autoClose) throws IOException {
    return factory().createSocket(socket, consumed, autoClose);
  }

  @Override
  public Socket createSocket() throws IOException {
    return factory().createSocket();
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return factory().createSocket(host, port);
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
    return factory().createSocket(host, port, localHost, localPort);
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return factory().createSocket(host, port);
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
      throws IOException {
    return factory().createSocket(address, port, localAddress, localPort);
  }
}
