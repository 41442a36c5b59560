package io.sievecrawl.config;

import java.util.Locale;

/** Which hosts a crawl may leave its seeds for. */
public enum Scope {
  /** Only the exact hosts of the seeds ({@code www.example.com} does not cover {@code example.com}). */
  HOST,
  /** Any host under a seed's registrable domain ({@code blog.example.co.uk} for {@code example.co.uk}). */
  DOMAIN,
  /** Any host. */
  ANY;

  /** The name used in config files and on the command line: {@code host}, {@code domain} or {@code any}. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
