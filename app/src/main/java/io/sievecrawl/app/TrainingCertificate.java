package io.sievecrawl.app;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A throwaway certificate for the AOT training's https site: a key pair and a self-signed certificate for 127.0.0.1
 * made by the training JDK's own keytool in the training's temporary directory (deleted with it), valid two days.
 * The server side is an {@link SSLContext} holding the key; the crawl is told to trust the certificate through
 * fetch.ca-file, so that it verifies the chain and the host name as it does on any site.
 */
final class TrainingCertificate {
  private static final char[] PASSWORD = "aot-training".toCharArray();
  private static final long KEYTOOL_TIMEOUT_SECONDS = 60;

  private final SSLContext server;
  private final Path caFile;

  private TrainingCertificate(SSLContext server, Path caFile) {
    this.server = server;
    this.caFile = caFile;
  }

  /**
   * Makes the key and certificate in {@code dir}.
   *
   * @throws IOException if keytool is missing or fails, naming what it printed
   */
  static TrainingCertificate make(Path dir) throws IOException {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    if (!Files.isExecutable(keytool)) {
      throw new IOException("no keytool at " + keytool);
    }
    Path store = dir.resolve("site.p12");
    Path pem = dir.resolve("site.pem");
    String password = new String(PASSWORD);
    run(List.of(keytool.toString(), "-genkeypair", "-alias", "site", "-keyalg", "RSA", "-keysize", "2048",
        "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
        "-keystore", store.toString(), "-storepass", password));
    run(List.of(keytool.toString(), "-exportcert", "-rfc", "-alias", "site", "-keystore", store.toString(),
        "-storepass", password, "-file", pem.toString()));
    try (InputStream in = Files.newInputStream(store)) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(in, PASSWORD);
      KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      managers.init(keys, PASSWORD);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(managers.getKeyManagers(), null, null);
      return new TrainingCertificate(context, pem);
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot load the training key store: " + e.getMessage(), e);
    }
  }

  /** The server's side: its key and certificate. */
  SSLContext server() {
    return server;
  }

  /** The certificate as PEM, for fetch.ca-file. */
  Path caFile() {
    return caFile;
  }

  private static void run(List<String> command) throws IOException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!process.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException("keytool did not finish in " + KEYTOOL_TIMEOUT_SECONDS + " s");
      }
      if (process.exitValue() != 0) {
        throw new IOException("keytool failed with exit code " + process.exitValue() + ": " + output);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while keytool ran", e);
    }
  }
}
