package dev.parquetconnect.format.schema;

import dev.parquetconnect.format.meta.ConvertedType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import java.math.BigInteger;

/**
 * The rules of LogicalTypes.md: which converted type a logical type is written with for old
 * readers, which logical type an old file's converted type means, which physical types an
 * annotation may sit on, and the sort order it gives statistics.
 */
public final class LogicalTypes {
  private LogicalTypes() {}

  // LogicalType union member ids (parquet.thrift); Java 17 has no pattern switch on records.
  static final int STRING = 1;
  static final int MAP = 2;
  static final int LIST = 3;
  static final int ENUM = 4;
  static final int DECIMAL = 5;
  static final int DATE = 6;
  static final int TIME = 7;
  static final int TIMESTAMP = 8;
  static final int INTEGER = 10;
  static final int UNKNOWN = 11;
  static final int JSON = 12;
  static final int BSON = 13;
  static final int UUID = 14;
  static final int FLOAT16 = 15;

  /** The converted type that means the same as {@code type}, or null where none does. */
  public static ConvertedType convertedTypeFor(LogicalType type) {
    if (type == null || type instanceof LogicalType.Unrecognized) {
      return null;
    }
    switch (type.fieldId()) {
      case STRING:
        return ConvertedType.UTF8;
      case MAP:
        return ConvertedType.MAP;
      case LIST:
        return ConvertedType.LIST;
      case ENUM:
        return ConvertedType.ENUM;
      case DECIMAL:
        return ConvertedType.DECIMAL;
      case DATE:
        return ConvertedType.DATE;
      case JSON:
        return ConvertedType.JSON;
      case BSON:
        return ConvertedType.BSON;
      case TIME:
        {
          // TIME_* and TIMESTAMP_* mean UTC-adjusted values; local ones have no converted type.
          LogicalType.TimeType t = (LogicalType.TimeType) type;
          if (!t.adjustedToUtc()) {
            return null;
          }
          return t.unit() == TimeUnit.MILLIS
              ? ConvertedType.TIME_MILLIS
              : t.unit() == TimeUnit.MICROS ? ConvertedType.TIME_MICROS : null;
        }
      case TIMESTAMP:
        {
          LogicalType.TimestampType t = (LogicalType.TimestampType) type;
          if (!t.adjustedToUtc()) {
            return null;
          }
          return t.unit() == TimeUnit.MILLIS
              ? ConvertedType.TIMESTAMP_MILLIS
              : t.unit() == TimeUnit.MICROS ? ConvertedType.TIMESTAMP_MICROS : null;
        }
      case INTEGER:
        {
          LogicalType.IntType i = (LogicalType.IntType) type;
          return integerConvertedType(i.bitWidth(), i.signed());
        }
      default:
        return null;
    }
  }

  private static ConvertedType integerConvertedType(int bitWidth, boolean signed) {
    return switch (bitWidth) {
      case 8 -> signed ? ConvertedType.INT_8 : ConvertedType.UINT_8;
      case 16 -> signed ? ConvertedType.INT_16 : ConvertedType.UINT_16;
      case 32 -> signed ? ConvertedType.INT_32 : ConvertedType.UINT_32;
      case 64 -> signed ? ConvertedType.INT_64 : ConvertedType.UINT_64;
      default -> null;
    };
  }

  /**
   * The logical type an old file's converted type stands for, or null (MAP_KEY_VALUE and INTERVAL
   * have no logical type; a DECIMAL without a valid precision is not one).
   */
  public static LogicalType fromConvertedType(
      ConvertedType converted, Integer scale, Integer precision) {
    if (converted == null) {
      return null;
    }
    return switch (converted) {
      case UTF8 -> LogicalType.STRING;
      case MAP -> LogicalType.MAP;
      case LIST -> LogicalType.LIST;
      case ENUM -> LogicalType.ENUM;
      case DECIMAL ->
          precision == null || precision <= 0
              ? null
              : new LogicalType.DecimalType(scale == null ? 0 : scale, precision);
      case DATE -> LogicalType.DATE;
      case TIME_MILLIS -> new LogicalType.TimeType(true, TimeUnit.MILLIS);
      case TIME_MICROS -> new LogicalType.TimeType(true, TimeUnit.MICROS);
      case TIMESTAMP_MILLIS -> new LogicalType.TimestampType(true, TimeUnit.MILLIS);
      case TIMESTAMP_MICROS -> new LogicalType.TimestampType(true, TimeUnit.MICROS);
      case UINT_8 -> new LogicalType.IntType((byte) 8, false);
      case UINT_16 -> new LogicalType.IntType((byte) 16, false);
      case UINT_32 -> new LogicalType.IntType((byte) 32, false);
      case UINT_64 -> new LogicalType.IntType((byte) 64, false);
      case INT_8 -> new LogicalType.IntType((byte) 8, true);
      case INT_16 -> new LogicalType.IntType((byte) 16, true);
      case INT_32 -> new LogicalType.IntType((byte) 32, true);
      case INT_64 -> new LogicalType.IntType((byte) 64, true);
      case JSON -> LogicalType.JSON;
      case BSON -> LogicalType.BSON;
      case MAP_KEY_VALUE, INTERVAL -> null;
    };
  }

  /** Whether {@code type} may annotate a column of this physical type (readers ignore misfits). */
  public static boolean isApplicable(LogicalType type, PhysicalType physical, int typeLength) {
    return problem(type, physical, typeLength) == null;
  }

  /** Throws {@link IllegalArgumentException} when {@code type} may not annotate the column. */
  static void checkApplicable(
      LogicalType type, PhysicalType physical, int typeLength, String name) {
    String problem = problem(type, physical, typeLength);
    if (problem != null) {
      throw new IllegalArgumentException("column " + name + ": " + problem);
    }
  }

  private static String problem(LogicalType type, PhysicalType physical, int typeLength) {
    if (type instanceof LogicalType.Unrecognized) {
      return null; // nothing to check: readers fall back to the physical values
    }
    boolean fits;
    switch (type.fieldId()) {
      case STRING, ENUM, JSON, BSON -> fits = physical == PhysicalType.BYTE_ARRAY;
      case UUID -> fits = physical == PhysicalType.FIXED_LEN_BYTE_ARRAY && typeLength == 16;
      case FLOAT16 -> fits = physical == PhysicalType.FIXED_LEN_BYTE_ARRAY && typeLength == 2;
      case DATE -> fits = physical == PhysicalType.INT32;
      case TIME ->
          fits =
              ((LogicalType.TimeType) type).unit() == TimeUnit.MILLIS
                  ? physical == PhysicalType.INT32
                  : physical == PhysicalType.INT64;
      case TIMESTAMP -> fits = physical == PhysicalType.INT64;
      case INTEGER -> {
        LogicalType.IntType i = (LogicalType.IntType) type;
        fits =
            switch (i.bitWidth()) {
              case 8, 16, 32 -> physical == PhysicalType.INT32;
              case 64 -> physical == PhysicalType.INT64;
              default -> false;
            };
      }
      case DECIMAL -> fits = decimalFits((LogicalType.DecimalType) type, physical, typeLength);
      case LIST, MAP -> fits = false; // group annotations
      default -> fits = true; // UNKNOWN (all nulls) fits any type; newer annotations unchecked
    }
    return fits
        ? null
        : logicalTypeName(type) + " cannot annotate " + physicalName(physical, typeLength);
  }

  private static boolean decimalFits(LogicalType.DecimalType d, PhysicalType physical, int length) {
    if (d.precision() <= 0 || d.scale() < 0 || d.scale() > d.precision()) {
      return false;
    }
    return switch (physical) {
      case INT32 -> d.precision() <= 9;
      case INT64 -> d.precision() <= 18;
      case FIXED_LEN_BYTE_ARRAY -> d.precision() <= maxDecimalPrecision(length);
      case BYTE_ARRAY -> true;
      default -> false;
    };
  }

  /** The most decimal digits a two's complement integer of {@code bytes} bytes always holds. */
  public static int maxDecimalPrecision(int bytes) {
    if (bytes <= 0) {
      return 0;
    }
    if (bytes > 1024) {
      return Integer.MAX_VALUE;
    }
    // floor(log10(2^(8n-1) - 1)): one digit fewer than the largest value has.
    return BigInteger.ONE.shiftLeft(8 * bytes - 1).subtract(BigInteger.ONE).toString().length() - 1;
  }

  /** The order statistics of {@code column} follow. */
  static SortOrder sortOrder(PrimitiveNode column) {
    LogicalType type = column.logicalType();
    if (type != null && !isApplicable(type, column.type(), column.typeLength())) {
      type = null; // an annotation that does not fit is ignored, as readers must
    }
    if (type instanceof LogicalType.IntType i) {
      return i.signed() ? SortOrder.SIGNED : SortOrder.UNSIGNED;
    }
    if (type instanceof LogicalType.DecimalType) {
      return SortOrder.SIGNED;
    }
    if (type instanceof LogicalType.Float16Type) {
      return SortOrder.FLOAT16;
    }
    if (type instanceof LogicalType.Unrecognized
        || column.convertedType() == ConvertedType.INTERVAL) {
      return SortOrder.UNDEFINED;
    }
    return switch (column.type()) {
      case BOOLEAN, INT32, INT64, FLOAT, DOUBLE -> SortOrder.SIGNED;
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> SortOrder.UNSIGNED;
      case INT96 -> SortOrder.UNDEFINED;
    };
  }

  /** The annotation as the schema text shows it, e.g. {@code DECIMAL(9,2)}. */
  public static String logicalTypeName(LogicalType type) {
    if (type instanceof LogicalType.Unrecognized u) {
      return "UNRECOGNIZED(" + u.fieldId() + ")";
    }
    return switch (type.fieldId()) {
      case STRING -> "STRING";
      case MAP -> "MAP";
      case LIST -> "LIST";
      case ENUM -> "ENUM";
      case DECIMAL -> {
        LogicalType.DecimalType d = (LogicalType.DecimalType) type;
        yield "DECIMAL(" + d.precision() + "," + d.scale() + ")";
      }
      case DATE -> "DATE";
      case TIME -> {
        LogicalType.TimeType t = (LogicalType.TimeType) type;
        yield "TIME(" + t.unit() + "," + t.adjustedToUtc() + ")";
      }
      case TIMESTAMP -> {
        LogicalType.TimestampType t = (LogicalType.TimestampType) type;
        yield "TIMESTAMP(" + t.unit() + "," + t.adjustedToUtc() + ")";
      }
      case INTEGER -> {
        LogicalType.IntType i = (LogicalType.IntType) type;
        yield "INTEGER(" + i.bitWidth() + "," + i.signed() + ")";
      }
      case UNKNOWN -> "UNKNOWN";
      case JSON -> "JSON";
      case BSON -> "BSON";
      case UUID -> "UUID";
      case FLOAT16 -> "FLOAT16";
      default ->
          type.getClass().getSimpleName().replace("Type", "").toUpperCase(java.util.Locale.ROOT);
    };
  }

  /** The physical type as the schema text names it ({@code binary} for BYTE_ARRAY). */
  static String physicalName(PhysicalType type, int typeLength) {
    return switch (type) {
      case FIXED_LEN_BYTE_ARRAY -> "fixed_len_byte_array(" + typeLength + ")";
      case BYTE_ARRAY -> "binary";
      default -> type.name().toLowerCase(java.util.Locale.ROOT);
    };
  }
}
