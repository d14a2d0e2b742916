package dev.parquetconnect.format.filter;

import dev.parquetconnect.format.ParquetException;
import java.io.IOException;

/** The bloom filters of one row group's column chunks, read when asked for; null where none. */
public interface BloomFilters {
  BloomFilter bloomFilter(int column) throws IOException, ParquetException;
}
