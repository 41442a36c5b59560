/**
 * The WHATWG Encoding Standard, as browsers decode pages and encode URL queries: {@link
 * io.sievecrawl.crawler.encoding.WebEncoding} maps each of the standard's 228 labels to one of its 40 encodings and
 * decodes and encodes as the standard's algorithms do, from the standard's own index tables.
 *
 * <p>The data is a pinned copy of the standard's {@code encodings.json} (the labels, last changed 2020-05-06) and
 * {@code indexes.json} (every index, last changed 2024-10-04), taken unchanged from the standard's repository
 * (whatwg/encoding, commit a985b62a9b45c17da3e17a9f0a0b4e30c34c4a8a of 2026-05-21), resources of this package.
 * Copyright WHATWG (Apple, Google, Mozilla, Microsoft), licensed under Creative Commons Attribution 4.0
 * International. {@code EncodingTest} checks every label against Chromium's {@code TextDecoder} (see
 * {@code src/test/resources/encoding/README.md}).
 */
package io.sievecrawl.crawler.encoding;
