package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.ParquetException;
import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TType;

/** Reads and writes {@code SchemaElement} and the {@code LogicalType} union. */
final class SchemaCodec {
  private static final String[] SCHEMA_FIELDS = {
    null,
    "type",
    "type_length",
    "repetition_type",
    "name",
    "num_children",
    "converted_type",
    "scale",
    "precision",
    "field_id",
    "logicalType"
  };
  private static final int SCHEMA_REQUIRED = 1 << 4;
  private static final String[] DECIMAL_FIELDS = {null, "scale", "precision"};
  private static final String[] TIME_FIELDS = {null, "isAdjustedToUTC", "unit"};
  private static final String[] INT_FIELDS = {null, "bitWidth", "isSigned"};
  private static final int FIELDS_1_AND_2 = (1 << 1) | (1 << 2);

  private SchemaCodec() {}

  static SchemaElement readSchemaElement(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    PhysicalType type = null;
    Integer typeLength = null;
    FieldRepetitionType repetition = null;
    String name = null;
    Integer numChildren = null;
    ConvertedType convertedType = null;
    Integer scale = null;
    Integer precision = null;
    Integer fieldId = null;
    LogicalType logicalType = null;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.I32)) {
            type = in.physicalType(in.i32(), "SchemaElement.type");
          }
        }
        case 2 -> {
          if (in.accept(f, TType.I32)) {
            typeLength = in.i32();
          }
        }
        case 3 -> {
          if (in.accept(f, TType.I32)) {
            repetition = in.repetition(in.i32(), "SchemaElement.repetition_type");
          }
        }
        case 4 -> {
          if (in.accept(f, TType.STRING)) {
            name = in.string();
            seen |= 1 << 4;
          }
        }
        case 5 -> {
          if (in.accept(f, TType.I32)) {
            numChildren = in.i32();
          }
        }
        case 6 -> {
          if (in.accept(f, TType.I32)) {
            convertedType = in.convertedType(in.i32(), "SchemaElement.converted_type");
          }
        }
        case 7 -> {
          if (in.accept(f, TType.I32)) {
            scale = in.i32();
          }
        }
        case 8 -> {
          if (in.accept(f, TType.I32)) {
            precision = in.i32();
          }
        }
        case 9 -> {
          if (in.accept(f, TType.I32)) {
            fieldId = in.i32();
          }
        }
        case 10 -> {
          if (in.accept(f, TType.STRUCT)) {
            logicalType = readLogicalType(in);
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, SCHEMA_REQUIRED, "SchemaElement", SCHEMA_FIELDS);
    in.structEnd();
    return new SchemaElement(
        type,
        typeLength,
        repetition,
        name,
        numChildren,
        convertedType,
        scale,
        precision,
        fieldId,
        logicalType);
  }

  static void writeSchemaElement(ThriftOutput out, SchemaElement e) throws TException {
    out.structBegin();
    if (e.type() != null) {
      out.i32(1, e.type().value());
    }
    out.optI32(2, e.typeLength());
    if (e.repetitionType() != null) {
      out.i32(3, e.repetitionType().value());
    }
    out.string(4, e.name());
    out.optI32(5, e.numChildren());
    if (e.convertedType() != null) {
      out.i32(6, e.convertedType().value());
    }
    out.optI32(7, e.scale());
    out.optI32(8, e.precision());
    out.optI32(9, e.fieldId());
    if (e.logicalType() != null) {
      out.fieldBegin(TType.STRUCT, 10);
      writeLogicalType(out, e.logicalType());
    }
    out.structEnd();
  }

  /**
   * Reads the union. A member this codec does not know, or a known member whose content it does not
   * understand (a new time unit or edge algorithm), reads as {@link LogicalType.Unrecognized}.
   */
  static LogicalType readLogicalType(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    LogicalType result = null;
    int members = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      members++;
      int id = ThriftInput.id(f);
      if (ThriftInput.type(f) != TType.STRUCT) {
        in.skip(ThriftInput.type(f));
        result = new LogicalType.Unrecognized(id);
        continue;
      }
      result =
          switch (id) {
            case 1 -> skipped(in, LogicalType.STRING);
            case 2 -> skipped(in, LogicalType.MAP);
            case 3 -> skipped(in, LogicalType.LIST);
            case 4 -> skipped(in, LogicalType.ENUM);
            case 5 -> readDecimal(in);
            case 6 -> skipped(in, LogicalType.DATE);
            case 7, 8 -> readTimeOrTimestamp(in, id);
            case 10 -> readInt(in);
            case 11 -> skipped(in, LogicalType.UNKNOWN);
            case 12 -> skipped(in, LogicalType.JSON);
            case 13 -> skipped(in, LogicalType.BSON);
            case 14 -> skipped(in, LogicalType.UUID);
            case 15 -> skipped(in, LogicalType.FLOAT16);
            case 16 -> readVariant(in);
            case 17 -> readGeometry(in);
            case 18 -> readGeography(in);
            case 19 -> skipped(in, LogicalType.FILE);
            default -> skipped(in, new LogicalType.Unrecognized(id));
          };
    }
    in.structEnd();
    in.checkOneMember("LogicalType", members);
    return result;
  }

  /** Skips a member struct that has no fields this codec reads (newer versions may add some). */
  private static LogicalType skipped(ThriftInput in, LogicalType type)
      throws TException, ParquetException {
    in.skip(TType.STRUCT);
    return type;
  }

  private static LogicalType readDecimal(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    int scale = 0;
    int precision = 0;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.I32)) {
            scale = in.i32();
            seen |= 1 << 1;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.I32)) {
            precision = in.i32();
            seen |= 1 << 2;
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, FIELDS_1_AND_2, "DecimalType", DECIMAL_FIELDS);
    in.structEnd();
    return new LogicalType.DecimalType(scale, precision);
  }

  private static LogicalType readTimeOrTimestamp(ThriftInput in, int memberId)
      throws TException, ParquetException {
    String struct = memberId == 7 ? "TimeType" : "TimestampType";
    in.structBegin();
    boolean adjusted = false;
    int unitId = 0;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.BOOL)) {
            adjusted = in.bool();
            seen |= 1 << 1;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.STRUCT)) {
            unitId = in.emptyStructUnion("TimeUnit");
            seen |= 1 << 2;
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, FIELDS_1_AND_2, struct, TIME_FIELDS);
    in.structEnd();
    TimeUnit unit = TimeUnit.fromFieldIdOrNull(unitId);
    if (unit == null) {
      return new LogicalType.Unrecognized(memberId);
    }
    return memberId == 7
        ? new LogicalType.TimeType(adjusted, unit)
        : new LogicalType.TimestampType(adjusted, unit);
  }

  private static LogicalType readInt(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    byte bitWidth = 0;
    boolean signed = false;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.BYTE)) {
            bitWidth = in.i8();
            seen |= 1 << 1;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.BOOL)) {
            signed = in.bool();
            seen |= 1 << 2;
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, FIELDS_1_AND_2, "IntType", INT_FIELDS);
    in.structEnd();
    return new LogicalType.IntType(bitWidth, signed);
  }

  private static LogicalType readVariant(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    Byte version = null;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      if (ThriftInput.id(f) == 1 && in.accept(f, TType.BYTE)) {
        version = in.i8();
      } else if (ThriftInput.id(f) != 1) {
        in.skip(ThriftInput.type(f));
      }
    }
    in.structEnd();
    return new LogicalType.VariantType(version);
  }

  private static LogicalType readGeometry(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    String crs = null;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      if (ThriftInput.id(f) == 1 && in.accept(f, TType.STRING)) {
        crs = in.string();
      } else if (ThriftInput.id(f) != 1) {
        in.skip(ThriftInput.type(f));
      }
    }
    in.structEnd();
    return new LogicalType.GeometryType(crs);
  }

  private static LogicalType readGeography(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    String crs = null;
    Integer algorithm = null;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.STRING)) {
            crs = in.string();
          }
        }
        case 2 -> {
          if (in.accept(f, TType.I32)) {
            algorithm = in.i32();
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.structEnd();
    if (algorithm == null) {
      return new LogicalType.GeographyType(crs, null);
    }
    EdgeInterpolationAlgorithm known = EdgeInterpolationAlgorithm.fromValueOrNull(algorithm);
    // An algorithm a newer writer added changes what the values mean: not a geography we know.
    return known == null
        ? new LogicalType.Unrecognized(18)
        : new LogicalType.GeographyType(crs, known);
  }

  /** Writes the union; a {@link LogicalType.Unrecognized} member cannot be written. */
  static void writeLogicalType(ThriftOutput out, LogicalType type) throws TException {
    out.structBegin();
    int id = type.fieldId();
    if (type instanceof LogicalType.DecimalType d) {
      out.fieldBegin(TType.STRUCT, id);
      out.structBegin();
      out.i32(1, d.scale());
      out.i32(2, d.precision());
      out.structEnd();
    } else if (type instanceof LogicalType.TimeType t) {
      writeTime(out, id, t.adjustedToUtc(), t.unit());
    } else if (type instanceof LogicalType.TimestampType t) {
      writeTime(out, id, t.adjustedToUtc(), t.unit());
    } else if (type instanceof LogicalType.IntType i) {
      out.fieldBegin(TType.STRUCT, id);
      out.structBegin();
      out.i8(1, i.bitWidth());
      out.bool(2, i.signed());
      out.structEnd();
    } else if (type instanceof LogicalType.VariantType v) {
      out.fieldBegin(TType.STRUCT, id);
      out.structBegin();
      out.optI8(1, v.specificationVersion());
      out.structEnd();
    } else if (type instanceof LogicalType.GeometryType g) {
      out.fieldBegin(TType.STRUCT, id);
      out.structBegin();
      out.optString(1, g.crs());
      out.structEnd();
    } else if (type instanceof LogicalType.GeographyType g) {
      out.fieldBegin(TType.STRUCT, id);
      out.structBegin();
      out.optString(1, g.crs());
      if (g.algorithm() != null) {
        out.i32(2, g.algorithm().value());
      }
      out.structEnd();
    } else if (type instanceof LogicalType.Unrecognized) {
      throw new IllegalArgumentException(
          "cannot write an unrecognised logical type (union member " + id + ")");
    } else {
      out.emptyStruct(id);
    }
    out.structEnd();
  }

  private static void writeTime(ThriftOutput out, int id, boolean adjusted, TimeUnit unit)
      throws TException {
    out.fieldBegin(TType.STRUCT, id);
    out.structBegin();
    out.bool(1, adjusted);
    out.fieldBegin(TType.STRUCT, 2);
    out.emptyStructUnion(unit.fieldId());
    out.structEnd();
  }

  static void writeSchema(ThriftOutput out, int fieldId, List<SchemaElement> schema)
      throws TException {
    out.listBegin(fieldId, TType.STRUCT, schema.size());
    for (SchemaElement e : schema) {
      writeSchemaElement(out, e);
    }
  }
}
