/** Per-host politeness between the sieve and the workers: start with {@link io.sievecrawl.crawler.schedule.HostScheduler}. */
package io.sievecrawl.crawler.schedule;
