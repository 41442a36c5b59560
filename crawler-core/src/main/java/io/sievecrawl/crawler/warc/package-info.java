/**
 * Archives of what a crawl fetched: WARC/1.1 files, their CDXJ index and WACZ packages.
 *
 * <p>Start with {@link io.sievecrawl.crawler.warc.WarcArchive}, the {@code ExchangeRecorder} that writes a request
 * and a response (or revisit) record per exchange into rolling {@code .warc.gz} files of one gzip member per record
 * ({@code WarcRecords} builds them, {@code GzipMemberWriter} compresses them). Its
 * {@link io.sievecrawl.crawler.warc.WarcDirectory} holds the directory's lock for its prefix, names the files and
 * repairs what a killed run left ({@code GzipMembers} finds where the complete members end). {@code WarcIndex}
 * indexes each closed file as CDXJ and merges the index at the end of a run; {@code WarcFileCheck} checks a file's
 * members and index lines before {@link io.sievecrawl.crawler.warc.WaczPackage} packages the directory as WACZ.
 * The exceptions say which way a directory cannot be used: another process writes it ({@code WarcInUseException}),
 * it cannot be written ({@code WarcWriteException}), or a file is damaged in a way no crash leaves
 * ({@code WarcDamagedException}).
 */
package io.sievecrawl.crawler.warc;
