package dev.parquetconnect.cli;

import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.ColumnMetaData;
import dev.parquetconnect.format.meta.ColumnOrder;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.KeyValue;
import dev.parquetconnect.format.meta.PageEncodingStats;
import dev.parquetconnect.format.meta.SizeStatistics;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.LogicalTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import java.util.ArrayList;
import java.util.List;

/** The footer's description of one column chunk, as {@code pq meta} prints it. */
final class ColumnChunkText {
  private static final int MAX_KEY_VALUE_CHARS = 120;

  private ColumnChunkText() {}

  /** The lines describing {@code chunk}, the first naming the column. */
  static List<String> lines(ColumnDescriptor column, ColumnChunk chunk, ColumnOrder order) {
    ColumnMetaData m = chunk.metaData();
    List<String> lines = new ArrayList<>();
    lines.add("column " + column.dottedPath());
    lines.add("  type: " + type(column.primitive()));
    lines.add("  codec: " + m.codec());
    lines.add("  encodings: " + encodings(m.encodings()));
    lines.add("  encoding stats: " + encodingStats(m.encodingStats()));
    lines.add("  values: " + m.numValues());
    lines.add("  compressed size: " + m.totalCompressedSize() + " bytes");
    lines.add("  uncompressed size: " + m.totalUncompressedSize() + " bytes");
    lines.add(
        "  dictionary page offset: "
            + (m.dictionaryPageOffset() == null ? "none" : m.dictionaryPageOffset()));
    lines.add("  data page offset: " + m.dataPageOffset());
    if (order != null && order != ColumnOrder.TYPE_DEFINED) {
      lines.add("  column order: " + order);
    }
    for (String line : new StatisticsText(column.primitive()).lines(m.statistics(), order)) {
      lines.add("  " + line);
    }
    lines.add("  bloom filter: " + location(m.bloomFilterOffset(), m.bloomFilterLength()));
    lines.add("  column index: " + location(chunk.columnIndexOffset(), chunk.columnIndexLength()));
    lines.add("  offset index: " + location(chunk.offsetIndexOffset(), chunk.offsetIndexLength()));
    SizeStatistics size = m.sizeStatistics();
    if (size != null && size.unencodedByteArrayDataBytes() != null) {
      lines.add("  unencoded byte array data: " + size.unencodedByteArrayDataBytes() + " bytes");
    }
    if (m.keyValueMetadata() != null) {
      lines.add("  key/value metadata: " + m.keyValueMetadata().size());
      for (KeyValue kv : m.keyValueMetadata()) {
        lines.add("    " + keyValue(kv));
      }
    }
    if (chunk.filePath() != null) {
      lines.add("  in another file: " + chunk.filePath());
    }
    return lines;
  }

  /** {@code INT32 INTEGER(8,false)}, {@code FIXED_LEN_BYTE_ARRAY(16) UUID}, or bare. */
  static String type(PrimitiveNode leaf) {
    StringBuilder text = new StringBuilder(leaf.type().name());
    if (leaf.typeLength() > 0) {
      text.append('(').append(leaf.typeLength()).append(')');
    }
    if (leaf.logicalType() != null) {
      text.append(' ').append(LogicalTypes.logicalTypeName(leaf.logicalType()));
    } else if (leaf.convertedType() != null) {
      text.append(' ').append(leaf.convertedType());
    }
    return text.append(", ")
        .append(leaf.repetition().name().toLowerCase(java.util.Locale.ROOT))
        .toString();
  }

  private static String encodings(List<Encoding> encodings) {
    if (encodings.isEmpty()) {
      return "none listed";
    }
    List<String> names = new ArrayList<>();
    encodings.forEach(e -> names.add(e.name()));
    return String.join(", ", names);
  }

  private static String encodingStats(List<PageEncodingStats> stats) {
    if (stats == null) {
      return "not recorded";
    }
    List<String> parts = new ArrayList<>();
    for (PageEncodingStats s : stats) {
      // A page type or encoding newer than this reader reads as null.
      parts.add(
          (s.pageType() == null ? "unknown page type" : s.pageType().name())
              + " "
              + (s.encoding() == null ? "unknown encoding" : s.encoding().name())
              + " x"
              + s.count());
    }
    return parts.isEmpty() ? "none" : String.join(", ", parts);
  }

  private static String location(Long offset, Integer length) {
    if (offset == null) {
      return "none";
    }
    return "at " + offset + (length == null ? "" : ", " + length + " bytes");
  }

  /** {@code key = "value"}, the value as a JSON string, abbreviated when long. */
  static String keyValue(KeyValue kv) {
    String value =
        kv.value() == null
            ? "(no value)"
            : TextLimits.abbreviate(Json.quote(kv.value()), MAX_KEY_VALUE_CHARS);
    return kv.key() + " = " + value;
  }
}
