/**
 * Crawl settings: typed, immutable, with every default, range and description in one table.
 *
 * <p>Start with {@link io.sievecrawl.config.CrawlSettings} (the settings a crawl runs with) and
 * {@link io.sievecrawl.config.Setting} (the table of keys, defaults and allowed ranges, each setting with a
 * {@link io.sievecrawl.config.ValueType} that parses, formats and checks its values). Invalid settings are reported
 * all at once in a {@link io.sievecrawl.config.SettingsException}.
 */
package io.sievecrawl.config;
