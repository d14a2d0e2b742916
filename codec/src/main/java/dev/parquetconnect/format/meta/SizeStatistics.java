package dev.parquetconnect.format.meta;

import java.util.List;

/**
 * Thrift struct {@code SizeStatistics}: the unencoded size of BYTE_ARRAY data and the histograms of
 * repetition and definition levels, for planning reads. Every field is optional (null when absent).
 */
public record SizeStatistics(
    Long unencodedByteArrayDataBytes,
    List<Long> repetitionLevelHistogram,
    List<Long> definitionLevelHistogram) {

  public SizeStatistics {
    repetitionLevelHistogram = Lists.copyOrNull(repetitionLevelHistogram);
    definitionLevelHistogram = Lists.copyOrNull(definitionLevelHistogram);
  }
}
