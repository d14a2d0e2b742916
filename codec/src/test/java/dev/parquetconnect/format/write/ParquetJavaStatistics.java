package dev.parquetconnect.format.write;

import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import java.util.List;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;

/**
 * What parquet-java computes as the statistics of some values of a column, with the rules
 * parquet.thrift sets for TYPE_ORDER floats applied on top (parquet-java 1.16 still lets NaN into
 * its float bounds): a zero minimum is -0 and a zero maximum +0, and values that include a NaN have
 * no min/max at all (which readers without nan_count, parquet-java's own among them, need so as not
 * to skip NaN; see {@link StatisticsFormat}).
 */
final class ParquetJavaStatistics {
  private ParquetJavaStatistics() {}

  static PrimitiveType type(MessageType schema, ColumnDescriptor column) {
    return ParquetJavaOracle.toParquetJava(schema)
        .getColumnDescription(column.path().toArray(new String[0]))
        .getPrimitiveType();
  }

  /** parquet-java's statistics of {@code values} and {@code nulls} nulls. */
  static Statistics<?> of(PrimitiveType type, PrimitiveNode node, List<Object> values, long nulls) {
    Statistics<?> stats = Statistics.createStats(type);
    boolean float16 = node.logicalType() instanceof LogicalType.Float16Type;
    if (hasNaN(values, float16)) {
      stats.incrementNumNulls(nulls);
      return stats;
    }
    for (Object v : values) {
      if (v instanceof Boolean b) {
        stats.updateStats(b);
      } else if (v instanceof Integer i) {
        stats.updateStats(i);
      } else if (v instanceof Long l) {
        stats.updateStats(l);
      } else if (v instanceof Float f) {
        if (!f.isNaN()) {
          stats.updateStats(f);
        }
      } else if (v instanceof Double d) {
        if (!d.isNaN()) {
          stats.updateStats(d);
        }
      } else {
        byte[] b = (byte[]) v;
        if (!(float16 && isHalfNaN(b))) {
          stats.updateStats(Binary.fromConstantByteArray(b));
        }
      }
    }
    stats.incrementNumNulls(nulls);
    return stats;
  }

  /** Whether {@code values} hold a NaN (FLOAT, DOUBLE or, when {@code float16}, FLOAT16). */
  static boolean hasNaN(List<Object> values, boolean float16) {
    for (Object v : values) {
      if (v instanceof Float f && f.isNaN()
          || v instanceof Double d && d.isNaN()
          || float16 && v instanceof byte[] b && isHalfNaN(b)) {
        return true;
      }
    }
    return false;
  }

  static boolean isHalfNaN(byte[] b) {
    int bits = (b[0] & 0xFF) | (b[1] & 0xFF) << 8;
    return (bits & 0x7C00) == 0x7C00 && (bits & 0x3FF) != 0;
  }

  /** The minimum parquet.thrift says to store: as computed, with a zero written as -0. */
  static byte[] min(Statistics<?> stats, PrimitiveNode node) {
    byte[] min = stats.getMinBytes();
    return isZero(min, node) ? negativeZero(node) : min;
  }

  /** The maximum to store: as computed, with a zero written as +0. */
  static byte[] max(Statistics<?> stats, PrimitiveNode node) {
    byte[] max = stats.getMaxBytes();
    return isZero(max, node) ? new byte[max.length] : max;
  }

  private static boolean isZero(byte[] plain, PrimitiveNode node) {
    return switch (node.type()) {
      case FLOAT -> LittleEndian.getFloat(plain, 0) == 0;
      case DOUBLE -> LittleEndian.getDouble(plain, 0) == 0;
      case FIXED_LEN_BYTE_ARRAY ->
          node.logicalType() instanceof LogicalType.Float16Type
              && ((plain[0] & 0xFF) | (plain[1] & 0x7F) << 8) == 0;
      default -> false;
    };
  }

  private static byte[] negativeZero(PrimitiveNode node) {
    return switch (node.type()) {
      case FLOAT -> new byte[] {0, 0, 0, (byte) 0x80};
      case DOUBLE -> new byte[] {0, 0, 0, 0, 0, 0, 0, (byte) 0x80};
      default -> new byte[] {0, (byte) 0x80};
    };
  }
}
