package dev.parquetconnect.format.meta;

import java.util.List;

/**
 * Thrift struct {@code GeospatialStatistics} of a GEOMETRY or GEOGRAPHY column chunk: its bounding
 * box and the WKB geometry type codes present. Both optional (null when absent).
 */
public record GeospatialStatistics(BoundingBox bbox, List<Integer> geospatialTypes) {
  public GeospatialStatistics {
    geospatialTypes = Lists.copyOrNull(geospatialTypes);
  }
}
