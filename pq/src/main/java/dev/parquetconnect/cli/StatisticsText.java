package dev.parquetconnect.cli;

import dev.parquetconnect.format.meta.ByteString;
import dev.parquetconnect.format.meta.ColumnOrder;
import dev.parquetconnect.format.meta.Statistics;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SortOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The statistics of a column chunk as lines of text: min and max rendered like {@code pq cat}
 * renders values of the column's logical type, with their exactness, and the counts.
 *
 * <p>Which bounds are shown follows the specification: {@code min_value}/{@code max_value} when
 * present (they follow the column order); the deprecated {@code min}/{@code max} only for a column
 * whose order is signed, which is what old writers compared by; none for a column order this reader
 * does not know.
 */
final class StatisticsText {
  /** Bounds longer than this (long strings, even truncated) are abbreviated. */
  private static final int MAX_BOUND_CHARS = 120;

  private final PrimitiveNode leaf;
  private final JsonRenderer renderer;

  StatisticsText(PrimitiveNode leaf) {
    this.leaf = leaf;
    this.renderer = LeafRenderers.forLeaf(leaf);
  }

  List<String> lines(Statistics stats, ColumnOrder order) {
    List<String> lines = new ArrayList<>();
    if (stats == null) {
      lines.add("statistics: none");
      return lines;
    }
    if (order == ColumnOrder.UNRECOGNIZED) {
      lines.add("min/max: not shown (the column order is one this reader does not know)");
    } else if (stats.minValue() != null || stats.maxValue() != null) {
      lines.add("min: " + bound(stats.minValue()) + exactness(stats.isMinValueExact()));
      lines.add("max: " + bound(stats.maxValue()) + exactness(stats.isMaxValueExact()));
    } else if (stats.min() != null || stats.max() != null) {
      if (leaf.sortOrder() == SortOrder.SIGNED) {
        lines.add("min: " + bound(stats.min()) + " (deprecated min field, signed order)");
        lines.add("max: " + bound(stats.max()) + " (deprecated max field, signed order)");
      } else {
        lines.add(
            "min/max: not shown (only the deprecated fields, which old writers filled"
                + " in signed byte order, not this column's "
                + leaf.sortOrder()
                + " order)");
      }
    } else {
      lines.add("min/max: none");
    }
    lines.add("nulls: " + count(stats.nullCount()));
    if (stats.distinctCount() != null) {
      lines.add("distinct values: " + stats.distinctCount());
    }
    if (stats.nanCount() != null) {
      lines.add("NaN values: " + stats.nanCount());
    }
    return lines;
  }

  private static String count(Long count) {
    return count == null ? "not recorded" : count.toString();
  }

  private static String exactness(Boolean exact) {
    if (exact == null) {
      return "";
    }
    return exact ? " (exact)" : " (not exact: a truncated bound)";
  }

  /** A bound rendered as the column's values are; raw hex when its bytes do not fit the type. */
  private String bound(ByteString bytes) {
    if (bytes == null) {
      return "none";
    }
    Object value = physicalValue(bytes);
    if (value == null) {
      return bytes + " (raw: " + bytes.length() + " bytes do not hold a " + leaf.type() + ")";
    }
    StringBuilder out = new StringBuilder();
    renderer.render(value, out);
    return TextLimits.abbreviate(out.toString(), MAX_BOUND_CHARS);
  }

  /** The PLAIN-encoded bound as the Row model's value of the column, or null. */
  private Object physicalValue(ByteString bytes) {
    int n = bytes.length();
    return switch (leaf.type()) {
      case BOOLEAN -> n == 1 ? bytes.byteAt(0) != 0 : null;
      case INT32 -> n == 4 ? (int) littleEndian(bytes, 4) : null;
      case INT64 -> n == 8 ? littleEndian(bytes, 8) : null;
      case FLOAT -> n == 4 ? Float.intBitsToFloat((int) littleEndian(bytes, 4)) : null;
      case DOUBLE -> n == 8 ? Double.longBitsToDouble(littleEndian(bytes, 8)) : null;
      case INT96 -> n == 12 ? bytes.toByteArray() : null;
      case FIXED_LEN_BYTE_ARRAY -> n == leaf.typeLength() ? bytes.toByteArray() : null;
      case BYTE_ARRAY -> bytes.toByteArray();
    };
  }

  private static long littleEndian(ByteString bytes, int length) {
    long value = 0;
    for (int i = length - 1; i >= 0; i--) {
      value = (value << 8) | (bytes.byteAt(i) & 0xFF);
    }
    return value;
  }
}
