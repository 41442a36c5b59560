/**
 * The {@code sievecrawl} command line: {@link io.sievecrawl.app.Main} and its picocli commands
 * ({@code crawl}, {@code plan}, {@code bench}). It translates options into settings and calls crawler-core.
 */
package io.sievecrawl.app;
