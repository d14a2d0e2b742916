package dev.parquetconnect.format.oracle;

import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.LogicalTypes;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Our {@link Row} values rendered in a canonical text per logical type, the form {@link
 * DuckDbOracle} renders DuckDB's values in, so the two compare as strings: integers as decimal
 * numbers (unsigned ones unsigned), decimals as plain decimal text, text as text, byte strings as
 * hex, UUIDs in their standard form, dates as epoch days, times and timestamps as epoch counts at
 * the precision DuckDB keeps (see {@link #timestampUnit}).
 */
public final class CanonicalValues {
  /** INT96 timestamps count days from the Julian day of the Unix epoch. */
  static final long JULIAN_EPOCH_DAY = 2_440_588;

  private CanonicalValues() {}

  /** Each top-level field of {@code row}, rendered. */
  public static List<String> fields(Row row, MessageType schema) {
    List<String> out = new ArrayList<>(row.size());
    for (int i = 0; i < row.size(); i++) {
      out.add(field(row.get(i), schema.fields().get(i)));
    }
    return out;
  }

  /** A field's value: a list of occurrences when the field is repeated. */
  static String field(Object value, SchemaNode node) {
    if (value == null) {
      return node.isRepeated() ? "[]" : "null";
    }
    if (node.isRepeated()) {
      StringBuilder out = new StringBuilder("[");
      String sep = "";
      for (Object e : (List<?>) value) {
        out.append(sep).append(occurrence(e, node));
        sep = ", ";
      }
      return out.append(']').toString();
    }
    return occurrence(value, node);
  }

  /** One occurrence of {@code node}'s value, ignoring its repetition. */
  static String occurrence(Object value, SchemaNode node) {
    if (value == null) {
      return "null";
    }
    if (node instanceof PrimitiveNode leaf) {
      return leaf(value, leaf);
    }
    GroupNode group = (GroupNode) node;
    NestedTypes.ListShape list = group.isList() ? NestedTypes.listShape(group) : null;
    if (list != null) {
      StringBuilder out = new StringBuilder("[");
      String sep = "";
      for (Object e : (List<?>) value) {
        out.append(sep).append(occurrence(e, list.element()));
        sep = ", ";
      }
      return out.append(']').toString();
    }
    NestedTypes.MapShape map = group.isMap() ? NestedTypes.mapShape(group) : null;
    if (map != null) {
      StringBuilder out = new StringBuilder("{");
      String sep = "";
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        out.append(sep).append(occurrence(e.getKey(), map.key())).append(": ");
        out.append(map.value() == null ? "null" : occurrence(e.getValue(), map.value()));
        sep = ", ";
      }
      return out.append('}').toString();
    }
    Row row = (Row) value;
    StringBuilder out = new StringBuilder("{");
    for (int i = 0; i < group.fieldCount(); i++) {
      out.append(i == 0 ? "" : ", ").append(group.field(i).name()).append('=');
      out.append(field(row.get(i), group.field(i)));
    }
    return out.append('}').toString();
  }

  /** A leaf's physical value interpreted by its logical type. */
  static String leaf(Object v, PrimitiveNode node) {
    LogicalType type = node.logicalType();
    if (type != null && !LogicalTypes.isApplicable(type, node.type(), node.typeLength())) {
      type = null;
    }
    if (type instanceof LogicalType.StringType
        || type instanceof LogicalType.EnumType
        || type instanceof LogicalType.JsonType) {
      return "s:" + new String((byte[]) v, StandardCharsets.UTF_8);
    }
    if (type instanceof LogicalType.UuidType) {
      ByteBuffer b = ByteBuffer.wrap((byte[]) v);
      return new UUID(b.getLong(), b.getLong()).toString();
    }
    if (type instanceof LogicalType.DecimalType d) {
      BigInteger unscaled =
          v instanceof Integer i
              ? BigInteger.valueOf(i)
              : v instanceof Long l ? BigInteger.valueOf(l) : new BigInteger((byte[]) v);
      return "d:" + new BigDecimal(unscaled, d.scale()).toPlainString();
    }
    if (type instanceof LogicalType.DateType) {
      return "date:" + v;
    }
    if (type instanceof LogicalType.TimeType t) {
      long raw = ((Number) v).longValue();
      return "time:" + toMicros(raw, t.unit()) + "us";
    }
    if (type instanceof LogicalType.TimestampType t) {
      long raw = ((Number) v).longValue();
      return timestampUnit(t).equals("ns")
          ? "ts:" + raw + "ns"
          : "ts:" + toMicros(raw, t.unit()) + "us";
    }
    if (type instanceof LogicalType.IntType i) {
      long raw = ((Number) v).longValue();
      if (i.signed()) {
        return "i:" + raw;
      }
      return "i:"
          + (i.bitWidth() == 64 ? Long.toUnsignedString(raw) : Long.toString(raw & 0xFFFFFFFFL));
    }
    if (type instanceof LogicalType.Float16Type) {
      byte[] b = (byte[]) v;
      return "f:" + half((b[0] & 0xFF) | (b[1] & 0xFF) << 8);
    }
    return switch (node.type()) {
      case BOOLEAN -> "b:" + v;
      case INT32, INT64 -> "i:" + v;
      case FLOAT -> "f:" + (Float) v;
      case DOUBLE -> "f:" + (Double) v;
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> "x:" + HexFormat.of().formatHex((byte[]) v);
      case INT96 -> "ts:" + int96Micros((byte[]) v) + "us";
    };
  }

  /**
   * The precision at which a timestamp is compared with DuckDB: nanoseconds only for local NANOS
   * timestamps (DuckDB's TIMESTAMP_NS); DuckDB reads UTC-adjusted NANOS as TIMESTAMPTZ, which holds
   * microseconds.
   */
  static String timestampUnit(LogicalType.TimestampType t) {
    return t.unit() == TimeUnit.NANOS && !t.adjustedToUtc() ? "ns" : "us";
  }

  static long toMicros(long raw, TimeUnit unit) {
    return switch (unit) {
      case MILLIS -> raw * 1000;
      case MICROS -> raw;
      case NANOS -> Math.floorDiv(raw, 1000);
    };
  }

  /** An INT96 timestamp (nanoseconds of the day, then the Julian day) in epoch microseconds. */
  static long int96Micros(byte[] v) {
    long nanos = LittleEndian.getLong(v, 0);
    long julianDay = LittleEndian.getInt(v, 8);
    return (julianDay - JULIAN_EPOCH_DAY) * 86_400_000_000L + Math.floorDiv(nanos, 1000);
  }

  /** The value of IEEE 754 half-precision bits, as Java prints it. */
  static String half(int bits) {
    int sign = (bits & 0x8000) << 16;
    int exponent = (bits >>> 10) & 0x1F;
    int mantissa = bits & 0x3FF;
    float value;
    if (exponent == 0x1F) {
      value = Float.intBitsToFloat(sign | 0x7F800000 | (mantissa << 13));
    } else if (exponent == 0) {
      value = mantissa * 0x1p-24f;
      value = sign == 0 ? value : -value;
    } else {
      value = Float.intBitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
    }
    return Float.toString(value);
  }
}
