package dev.parquetconnect.iceberg;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.meta.ByteString;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.ColumnMetaData;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.meta.Statistics;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaConverter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.MetricsModes;
import org.apache.iceberg.MetricsUtil;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.util.BinaryUtil;
import org.apache.iceberg.util.UUIDUtil;
import org.apache.iceberg.util.UnicodeUtil;
import org.apache.kafka.connect.errors.DataException;

/**
 * The metrics of a data file for its manifest entry, from the footer our writer wrote (never a
 * re-read), as Iceberg's own Parquet footer metrics compute them:
 *
 * <ul>
 *   <li>record count: the row groups' rows;
 *   <li>column sizes: every column chunk's compressed size, per field id, lists and maps included;
 *   <li>value, null and NaN counts and lower/upper bounds: only for columns outside lists and maps
 *       (Iceberg keeps none for repeated fields), and only when every row group has statistics for
 *       the column; NaN counts from our writer's {@code nan_count}, for float and double columns;
 *   <li>bounds in Iceberg's single-value serialization of the file column's type (an int column of
 *       a long table column keeps 4-byte bounds, as Iceberg's readers expect of files written
 *       before a promotion), strings and binaries truncated as the column's metrics mode says.
 * </ul>
 *
 * Metrics modes ({@code write.metadata.metrics.default}, {@code write.metadata.metrics.column.*}):
 * {@code none} keeps nothing of the column, not even its size; {@code counts} the counts; {@code
 * truncate(n)} (Iceberg's default, n = 16) and {@code full} the bounds too.
 *
 * <p>One difference from Iceberg's footer metrics, on the safe side: our writer keeps no min/max
 * for a chunk holding NaN, so such a column gets no bounds at all, where Iceberg's footer reading
 * would take the bounds of the other row groups alone (and then prune a file whose NaN chunk holds
 * values outside them).
 */
public final class DataFileMetrics {
  private DataFileMetrics() {}

  /**
   * The metrics of the file whose footer is {@code footer}, for a table of schema {@code table}
   * whose metrics config is {@code config}.
   *
   * @throws DataException when the footer's schema has no Iceberg form, or its statistics do not
   *     decode (our writer does not write such a footer)
   */
  public static Metrics of(FileMetaData footer, Schema table, MetricsConfig config) {
    MessageType parquet;
    try {
      parquet = SchemaConverter.fromSchemaElements(footer.schema());
    } catch (CorruptDataException e) {
      throw new DataException("the data file's footer has no valid schema: " + e.getMessage(), e);
    }
    Schema file = IcebergSchemas.fromParquet(parquet);
    List<ColumnDescriptor> columns = parquet.columns();

    long rowCount = 0;
    for (RowGroup group : footer.rowGroups()) {
      rowCount += group.numRows();
    }
    Map<Integer, Long> columnSizes = new HashMap<>();
    Map<Integer, Long> valueCounts = new HashMap<>();
    Map<Integer, Long> nullCounts = new HashMap<>();
    Map<Integer, Long> nanCounts = new HashMap<>();
    Map<Integer, ByteBuffer> lowerBounds = new HashMap<>();
    Map<Integer, ByteBuffer> upperBounds = new HashMap<>();
    Map<Integer, Type> boundTypes = new HashMap<>();

    for (ColumnDescriptor column : columns) {
      Integer id = column.primitive().fieldId();
      if (id == null) {
        continue;
      }
      MetricsModes.MetricsMode mode = MetricsUtil.metricsMode(table, config, id);
      if (mode == MetricsModes.None.get()) {
        continue;
      }
      long size = 0;
      for (RowGroup group : footer.rowGroups()) {
        size += chunk(group, column).totalCompressedSize();
      }
      columnSizes.put(id, size);
      if (column.maxRepetitionLevel() > 0) {
        continue; // in a list or a map: Iceberg keeps no counts nor bounds of repeated fields
      }
      Type type = file.findType(id);
      ColumnMetrics metrics = new ColumnMetrics(column, type);
      for (RowGroup group : footer.rowGroups()) {
        if (!metrics.add(chunk(group, column))) {
          metrics = null;
          break;
        }
      }
      if (metrics == null) {
        continue;
      }
      valueCounts.put(id, metrics.values);
      nullCounts.put(id, metrics.nulls);
      if (metrics.countsNans()) {
        nanCounts.put(id, metrics.nans);
      }
      int length = truncateLength(mode);
      if (length > 0 && !metrics.boundsLost) {
        // the type the bounds are serialized in, recorded as Iceberg does even for a column that
        // held only nulls (and so has no bounds)
        boundTypes.put(id, type);
        if (metrics.lower != null && metrics.upper != null) {
          lowerBounds.put(
              id, Conversions.toByteBuffer(type, truncateLower(type, metrics.lower, length)));
          Object upper = truncateUpper(type, metrics.upper, length);
          if (upper != null) {
            upperBounds.put(id, Conversions.toByteBuffer(type, upper));
          }
        }
      }
    }
    return new Metrics(
        rowCount,
        columnSizes,
        valueCounts,
        nullCounts,
        nanCounts,
        lowerBounds,
        upperBounds,
        boundTypes);
  }

  private static ColumnMetaData chunk(RowGroup group, ColumnDescriptor column) {
    ColumnChunk chunk = group.columns().get(column.index());
    if (chunk.metaData() == null || !chunk.metaData().pathInSchema().equals(column.path())) {
      throw new DataException(
          "the data file's footer has no metadata for column '"
              + column.dottedPath()
              + "' in a row group");
    }
    return chunk.metaData();
  }

  private static int truncateLength(MetricsModes.MetricsMode mode) {
    if (mode == MetricsModes.Counts.get()) {
      return 0;
    }
    if (mode instanceof MetricsModes.Truncate truncate) {
      return truncate.length();
    }
    return Integer.MAX_VALUE;
  }

  private static Object truncateLower(Type type, Object value, int length) {
    return switch (type.typeId()) {
      case STRING -> UnicodeUtil.truncateStringMin((String) value, length);
      case BINARY -> BinaryUtil.truncateBinaryMin((ByteBuffer) value, length);
      default -> value;
    };
  }

  /** The truncated upper bound, or null when none exists (every code point already the largest). */
  private static Object truncateUpper(Type type, Object value, int length) {
    return switch (type.typeId()) {
      case STRING -> UnicodeUtil.truncateStringMax((String) value, length);
      case BINARY -> BinaryUtil.truncateBinaryMax((ByteBuffer) value, length);
      default -> value;
    };
  }

  /** The counts and bounds of one column over the row groups. */
  private static final class ColumnMetrics {
    private final ColumnDescriptor column;
    private final Type type;
    private final Comparator<Object> order;
    long values;
    long nulls;
    long nans;
    private boolean nansKnown = true;
    boolean boundsLost;
    Object lower;
    Object upper;

    ColumnMetrics(ColumnDescriptor column, Type type) {
      this.column = column;
      this.type = type;
      this.order = orderOf(type);
    }

    /**
     * How the bounds of row groups combine: Iceberg's order of the type, except for UUIDs, which
     * Parquet orders as unsigned bytes (so do Iceberg's own Parquet metrics), where {@code
     * UUID.compareTo} compares signed halves.
     */
    @SuppressWarnings("unchecked")
    private static Comparator<Object> orderOf(Type type) {
      if (type.typeId() == Type.TypeID.UUID) {
        return (a, b) -> {
          UUID x = (UUID) a;
          UUID y = (UUID) b;
          int high = Long.compareUnsigned(x.getMostSignificantBits(), y.getMostSignificantBits());
          return high != 0
              ? high
              : Long.compareUnsigned(x.getLeastSignificantBits(), y.getLeastSignificantBits());
        };
      }
      return (Comparator<Object>) (Comparator<?>) Comparators.forType(type.asPrimitiveType());
    }

    /** Adds a chunk; false when it has no statistics (the column then gets no metrics). */
    boolean add(ColumnMetaData chunk) {
      Statistics stats = chunk.statistics();
      if (stats == null || stats.nullCount() == null) {
        return false;
      }
      values += chunk.numValues();
      nulls += stats.nullCount();
      if (stats.nanCount() == null) {
        nansKnown = false;
      } else {
        nans += stats.nanCount();
      }
      if (stats.minValue() == null || stats.maxValue() == null) {
        // values other than nulls but no bounds: NaN (our writer keeps no bounds then)
        if (stats.nanCount() != null && stats.nanCount() > 0) {
          boundsLost = true;
        }
        return true;
      }
      Object min = value(stats.minValue());
      Object max = value(stats.maxValue());
      if (lower == null || order.compare(min, lower) < 0) {
        lower = min;
      }
      if (upper == null || order.compare(max, upper) > 0) {
        upper = max;
      }
      return true;
    }

    boolean countsNans() {
      return nansKnown
          && (type.typeId() == Type.TypeID.FLOAT || type.typeId() == Type.TypeID.DOUBLE);
    }

    /** A statistics value of the column in the Java form Iceberg's type takes. */
    private Object value(ByteString bytes) {
      byte[] raw = bytes.toByteArray();
      PrimitiveNode leaf = column.primitive();
      switch (leaf.type()) {
        case BOOLEAN:
          need(raw, 1);
          return raw[0] != 0;
        case INT32:
          need(raw, 4);
          int i = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).getInt();
          return switch (type.typeId()) {
            case DECIMAL -> BigDecimal.valueOf(i, scale(leaf));
            default -> i;
          };
        case INT64:
          need(raw, 8);
          long l = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).getLong();
          return switch (type.typeId()) {
            case DECIMAL -> BigDecimal.valueOf(l, scale(leaf));
            default -> l;
          };
        case FLOAT:
          need(raw, 4);
          return Float.intBitsToFloat(ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).getInt());
        case DOUBLE:
          need(raw, 8);
          return Double.longBitsToDouble(
              ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).getLong());
        case BYTE_ARRAY:
        case FIXED_LEN_BYTE_ARRAY:
          return switch (type.typeId()) {
            case STRING -> new String(raw, StandardCharsets.UTF_8);
            case UUID -> UUIDUtil.convert(ByteBuffer.wrap(raw));
            case DECIMAL -> new BigDecimal(new BigInteger(raw), scale(leaf));
            default -> ByteBuffer.wrap(raw);
          };
        default:
          throw new DataException(
              "column '" + column.dottedPath() + "': no bounds for " + leaf.type());
      }
    }

    private void need(byte[] raw, int length) {
      if (raw.length != length) {
        throw new DataException(
            "column '"
                + column.dottedPath()
                + "': a statistics value of "
                + raw.length
                + " bytes, not "
                + length);
      }
    }

    private static int scale(PrimitiveNode leaf) {
      return ((LogicalType.DecimalType) leaf.logicalType()).scale();
    }
  }
}
