package io.sievecrawl.sieve;

/**
 * A task handed out by a {@link Frontier}, named by an identity that the frontier uses to acknowledge it.
 *
 * @param task the task
 * @param id the frontier's identity for this hand-out (a log sequence number, a stream entry); unique within a run
 */
public record Claim<T>(T task, long id) {}
