package dev.parquetconnect.format.meta;

import java.util.Objects;

/**
 * Thrift union {@code LogicalType}: the annotation that gives a physical type its meaning. Each
 * member is a record whose {@link #fieldId()} is its union field id. A member this codec does not
 * know (or whose content it does not understand, such as a new time unit) reads as {@link
 * Unrecognized}, so a reader can fall back to the physical values as the specification asks,
 * instead of rejecting the file.
 */
public sealed interface LogicalType {
  StringType STRING = new StringType();
  MapType MAP = new MapType();
  ListType LIST = new ListType();
  EnumType ENUM = new EnumType();
  DateType DATE = new DateType();
  NullType UNKNOWN = new NullType();
  JsonType JSON = new JsonType();
  BsonType BSON = new BsonType();
  UuidType UUID = new UuidType();
  Float16Type FLOAT16 = new Float16Type();
  FileType FILE = new FileType();

  /** The union member's Thrift field id. */
  int fieldId();

  /** {@code STRING} (1): UTF-8 text in a BYTE_ARRAY. */
  record StringType() implements LogicalType {
    @Override
    public int fieldId() {
      return 1;
    }
  }

  /** {@code MAP} (2): a map group, laid out as LogicalTypes.md describes. */
  record MapType() implements LogicalType {
    @Override
    public int fieldId() {
      return 2;
    }
  }

  /** {@code LIST} (3): a list group, laid out as LogicalTypes.md describes. */
  record ListType() implements LogicalType {
    @Override
    public int fieldId() {
      return 3;
    }
  }

  /** {@code ENUM} (4): an enum value as UTF-8 text in a BYTE_ARRAY. */
  record EnumType() implements LogicalType {
    @Override
    public int fieldId() {
      return 4;
    }
  }

  /** {@code DECIMAL} (5): unscaled integer with the given scale and precision. */
  record DecimalType(int scale, int precision) implements LogicalType {
    @Override
    public int fieldId() {
      return 5;
    }
  }

  /** {@code DATE} (6): days since the Unix epoch in an INT32. */
  record DateType() implements LogicalType {
    @Override
    public int fieldId() {
      return 6;
    }
  }

  /** {@code TIME} (7): time of day in the given unit. */
  record TimeType(boolean adjustedToUtc, TimeUnit unit) implements LogicalType {
    public TimeType {
      Objects.requireNonNull(unit, "unit");
    }

    @Override
    public int fieldId() {
      return 7;
    }
  }

  /** {@code TIMESTAMP} (8): an instant or a local date-time in the given unit. */
  record TimestampType(boolean adjustedToUtc, TimeUnit unit) implements LogicalType {
    public TimestampType {
      Objects.requireNonNull(unit, "unit");
    }

    @Override
    public int fieldId() {
      return 8;
    }
  }

  /**
   * {@code INTEGER} (10): a signed or unsigned integer of 8, 16, 32 or 64 bits (an i8 on the wire).
   */
  record IntType(byte bitWidth, boolean signed) implements LogicalType {
    @Override
    public int fieldId() {
      return 10;
    }
  }

  /** {@code UNKNOWN} (11, the Thrift {@code NullType}): a column that only ever holds nulls. */
  record NullType() implements LogicalType {
    @Override
    public int fieldId() {
      return 11;
    }
  }

  /** {@code JSON} (12): JSON text in a BYTE_ARRAY. */
  record JsonType() implements LogicalType {
    @Override
    public int fieldId() {
      return 12;
    }
  }

  /** {@code BSON} (13): a BSON document in a BYTE_ARRAY. */
  record BsonType() implements LogicalType {
    @Override
    public int fieldId() {
      return 13;
    }
  }

  /** {@code UUID} (14): a UUID in a 16-byte FIXED_LEN_BYTE_ARRAY. */
  record UuidType() implements LogicalType {
    @Override
    public int fieldId() {
      return 14;
    }
  }

  /** {@code FLOAT16} (15): an IEEE half-precision float in a 2-byte FIXED_LEN_BYTE_ARRAY. */
  record Float16Type() implements LogicalType {
    @Override
    public int fieldId() {
      return 15;
    }
  }

  /** {@code VARIANT} (16): a semi-structured variant group; the version is an optional i8. */
  record VariantType(Byte specificationVersion) implements LogicalType {
    @Override
    public int fieldId() {
      return 16;
    }
  }

  /** {@code GEOMETRY} (17): WKB geometry with an optional coordinate reference system. */
  record GeometryType(String crs) implements LogicalType {
    @Override
    public int fieldId() {
      return 17;
    }
  }

  /** {@code GEOGRAPHY} (18): WKB geography; a null algorithm means the default, SPHERICAL. */
  record GeographyType(String crs, EdgeInterpolationAlgorithm algorithm) implements LogicalType {
    @Override
    public int fieldId() {
      return 18;
    }
  }

  /** {@code FILE} (19): a reference to a file stored outside the Parquet file. */
  record FileType() implements LogicalType {
    @Override
    public int fieldId() {
      return 19;
    }
  }

  /**
   * A member this codec does not understand, kept by its field id. Readers treat the column as
   * having no logical type; it cannot be written back because its content was skipped.
   */
  record Unrecognized(int fieldId) implements LogicalType {}
}
