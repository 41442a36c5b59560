package io.sievecrawl.config;

import java.util.Locale;

/** When a crawl fetches its pages' requisites ({@code requisites.fetch}). */
public enum RequisiteFetch {
  /** With WARC output ({@code warc.dir}): what an archive needs to replay its pages as they looked. */
  AUTO,
  /** Always. */
  ON,
  /** Never. */
  OFF;

  /** The name used in config files: {@code auto}, {@code on} or {@code off}. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
