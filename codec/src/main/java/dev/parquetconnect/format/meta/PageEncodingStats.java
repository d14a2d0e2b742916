package dev.parquetconnect.format.meta;

/**
 * Thrift struct {@code PageEncodingStats}: how many pages of a type use an encoding in a column
 * chunk. A page type or encoding a newer writer defined reads as null, so the entry (and its count)
 * stays visible: a reader deciding "every data page is dictionary encoded" must treat a null
 * encoding as "no". Such an entry cannot be written back.
 */
public record PageEncodingStats(PageType pageType, Encoding encoding, int count) {}
