package io.sievecrawl.config;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version of sievecrawl, from the build. */
public final class Version {
  private static final String VERSION = load();

  private Version() {}

  /** The version string, e.g. {@code 0.1.0}. */
  public static String get() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      Properties p = new Properties();
      if (in != null) {
        p.load(in);
      }
      return p.getProperty("version", "dev").replace("-SNAPSHOT", "");
    } catch (IOException e) {
      return "dev";
    }
  }
}
