package dev.parquetconnect.format.meta;

import java.util.List;

/**
 * Thrift struct {@code OffsetIndex}: where each data page of a column chunk is, plus (optional,
 * null when absent) each page's unencoded BYTE_ARRAY size.
 */
public record OffsetIndex(
    List<PageLocation> pageLocations, List<Long> unencodedByteArrayDataBytes) {
  public OffsetIndex {
    pageLocations = Lists.copy(pageLocations, "pageLocations");
    unencodedByteArrayDataBytes = Lists.copyOrNull(unencodedByteArrayDataBytes);
  }
}
