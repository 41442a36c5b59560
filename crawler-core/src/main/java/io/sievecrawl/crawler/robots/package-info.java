/** robots.txt (RFC 9309) through crawler-commons, cached per origin: start with {@link io.sievecrawl.crawler.robots.RobotsPolicy}. */
package io.sievecrawl.crawler.robots;
