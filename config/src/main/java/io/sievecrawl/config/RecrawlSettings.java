package io.sievecrawl.config;

import java.time.Duration;

/**
 * What {@code sievecrawl recrawl} visits again and what it forgets: the {@code recrawl.*} keys.
 *
 * @param after URLs last fetched longer ago than this are visited again ({@code recrawl.after})
 * @param forgetAfter visits in a row answering 404 or 410 after which a URL is forgotten
 *     ({@code recrawl.forget-after})
 */
public record RecrawlSettings(Duration after, int forgetAfter) {

  static RecrawlSettings from(CrawlSettings s) {
    return new RecrawlSettings(s.get(Setting.RECRAWL_AFTER), s.get(Setting.RECRAWL_FORGET_AFTER));
  }
}
