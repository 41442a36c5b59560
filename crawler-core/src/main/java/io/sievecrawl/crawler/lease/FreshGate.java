package io.sievecrawl.crawler.lease;

import io.sievecrawl.crawler.LastVisit;
import io.sievecrawl.crawler.report.SkipReason;
import java.io.IOException;

/**
 * A recrawl's URL fetched after the recrawl's cutoff is not fetched again: it is kept as its last visit left it
 * (its state carried to the new generation) and counted as skipped, {@link SkipReason#FRESH}.
 */
final class FreshGate implements LeaseStep {
  @Override
  public Outcome handle(Chain chain) throws IOException {
    LastVisit last = chain.task().last();
    return last != null && last.fresh() ? Outcome.skipped(SkipReason.FRESH) : chain.proceed();
  }
}
