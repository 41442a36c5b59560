/**
 * The {@code sievecrawl} command line: {@link io.sievecrawl.app.Main} and its picocli commands ({@code crawl}, {@code
 * resume}, {@code recrawl}, {@code join}, {@code remove}, {@code plan}, {@code bench}, {@code wacz}, {@code
 * completion}), listed by {@code SievecrawlCommand} and wired by {@code Cli}. It turns options, seed files and config
 * files into settings, runs a crawl with one run protocol ({@code CrawlRun}) in a crawl directory ({@code
 * DirectoryRun}) or a shared crawl ({@code SharedRun}), and owns what the user sees: the console, the log, the progress
 * line, the summary and the exit codes ({@link io.sievecrawl.app.ExitCodes}). No crawling algorithm lives here. The
 * module's README says where to start; the user's reference in {@code app/docs} is generated in part from these
 * classes.
 */
package io.sievecrawl.app;
