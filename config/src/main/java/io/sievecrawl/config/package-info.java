/**
 * Crawl settings: typed, immutable, with every default, range and description in one table.
 *
 * <p>Start with {@link io.sievecrawl.config.CrawlSettings} (the settings a crawl runs with) and
 * {@link io.sievecrawl.config.Setting} (the table of keys, defaults and allowed ranges, each setting with a
 * {@link io.sievecrawl.config.ValueType} that parses, formats and checks its values). Code reads the settings by
 * section, one immutable record per section of the config file ({@link io.sievecrawl.config.FetchSettings},
 * {@link io.sievecrawl.config.PolitenessSettings}, ...). Invalid settings are reported all at once in a
 * {@link io.sievecrawl.config.SettingsException}.
 */
package io.sievecrawl.config;
