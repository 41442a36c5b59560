package io.sievecrawl.crawler.html;

import java.util.List;

/**
 * What a page offers the crawler.
 *
 * @param links every followable link, resolved and normalized, in document order, duplicates kept out
 * @param found every link found before nofollow and normalization filtering (the record's {@code outlinks})
 * @param nofollow whether the page asked crawlers not to follow its links
 */
public record PageLinks(List<String> links, int found, boolean nofollow) {}
