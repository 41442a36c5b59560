package io.sievecrawl.config;

/**
 * WARC files of the HTTP exchanges: the {@code warc.*} keys.
 *
 * @param dir the directory WARC files go to, empty when none are written ({@code warc.dir})
 * @param maxSize the size past which a new WARC file is started, in bytes ({@code warc.max-size})
 * @param prefix the start of the WARC files' names ({@code warc.prefix})
 * @param keepCredentials whether request records keep Authorization and Cookie values as sent, rather than masked
 *     ({@code warc.keep-credentials})
 * @param dedupDigests payload digests remembered to store an identical payload once, 0 for none
 *     ({@code warc.dedup-digests})
 */
public record WarcSettings(String dir, long maxSize, String prefix, boolean keepCredentials, int dedupDigests) {

  static WarcSettings from(CrawlSettings s) {
    return new WarcSettings(s.get(Setting.WARC_DIR), s.get(Setting.WARC_MAX_SIZE), s.get(Setting.WARC_PREFIX),
        s.get(Setting.WARC_KEEP_CREDENTIALS), (int) (long) s.get(Setting.WARC_DEDUP_DIGESTS));
  }
}
