package io.sievecrawl.crawler.scope;

import java.util.Collection;
import java.util.List;

/**
 * Where the sites in scope are shared between the agents of a crawl: each agent publishes the sites its seeds'
 * redirects bring into scope and reads the others'. A crawl of one process shares with nobody ({@link #NONE}).
 */
public interface ScopeSites {
  ScopeSites NONE = new ScopeSites() {
    @Override
    public Collection<String> load() {
      return List.of();
    }

    @Override
    public void publish(String site) {}
  };

  /**
   * The sites agents have published since this agent's last load (all of them the first time): sites in scope are
   * never taken back, so an agent reads each once. Two loads at once may return some sites twice.
   */
  Collection<String> load();

  /** Tells the other agents that {@code site} is in scope. */
  void publish(String site);

  /** Tells the other agents that {@code sites} are in scope: the seeds' sites, many at once. */
  default void publishAll(Collection<String> sites) {
    sites.forEach(this::publish);
  }
}
