package io.sievecrawl.sieve;

/** The two 64-bit halves of a 128-bit hash: {@code h1} picks the block, {@code h2} the bits inside it. */
record Hash128(long h1, long h2) {}
