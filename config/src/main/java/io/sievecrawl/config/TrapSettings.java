package io.sievecrawl.config;

/**
 * Defences against spider traps, applied to every URL found: the {@code traps.*} keys.
 *
 * @param maxUrlLength the longest URL kept, after normalization ({@code traps.max-url-length})
 * @param maxPathSegments the most path segments a URL kept may have ({@code traps.max-path-segments})
 * @param maxSegmentRepeats the most times one path segment may occur in a URL kept
 *     ({@code traps.max-segment-repeats})
 * @param stripSessionIds whether session ids are removed from URLs ({@code traps.strip-session-ids})
 */
public record TrapSettings(int maxUrlLength, int maxPathSegments, int maxSegmentRepeats, boolean stripSessionIds) {

  static TrapSettings from(CrawlSettings s) {
    return new TrapSettings(s.get(Setting.MAX_URL_LENGTH), s.get(Setting.MAX_PATH_SEGMENTS),
        s.get(Setting.MAX_SEGMENT_REPEATS), s.get(Setting.STRIP_SESSION_IDS));
  }
}
