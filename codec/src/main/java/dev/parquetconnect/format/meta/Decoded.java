package dev.parquetconnect.format.meta;

/**
 * A decoded Thrift struct and the number of bytes its encoding took, for structures followed by
 * data in the same buffer (a page header and its page, a bloom filter header and its bitset).
 */
public record Decoded<T>(T value, int length) {}
