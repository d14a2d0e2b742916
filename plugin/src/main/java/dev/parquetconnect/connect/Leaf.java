package dev.parquetconnect.connect;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.encoding.Dictionary;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.PrimitiveNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;

/**
 * A leaf: the column's physical value as the Connect class of the schema (any conversion; the
 * commonest have the subclasses above).
 */
class Leaf extends FieldReader {
  static final int BOOLEAN = 0;
  static final int INT8 = 1;
  static final int INT16 = 2;
  static final int INT32 = 3;
  static final int INT64 = 4;
  static final int FLOAT = 5;
  static final int HALF_FLOAT = 6;
  static final int DOUBLE = 7;
  static final int STRING = 8;
  static final int UUID = 9;
  static final int BYTES = 10;
  static final int DECIMAL = 11;
  static final int DATE = 12;
  static final int TIME = 13;
  static final int TIMESTAMP = 14;
  static final int INT96_TIMESTAMP = 15;

  /** A value whose Parquet type the Connect kind cannot take (fails where present). */
  static final int MISMATCH = 16;

  final ColumnCursor column;
  private final int conversion;
  private final String path;
  private final PhysicalType physical;
  private final boolean unsigned;
  private final long unitsPerMilli;
  private final int parquetScale;
  int connectScale;
  boolean optional;
  final Utf8Strings strings = new Utf8Strings();

  /** Values converted per entry of {@link #sharedDictionary} (see {@link #shared}). */
  private Dictionary sharedDictionary;

  private Object[] sharedValues;

  Leaf(
      RecordScope scope,
      PrimitiveNode leaf,
      int def,
      int rep,
      ColumnCursor column,
      int conversion,
      String path) {
    this.column = column;
    this.conversion = conversion;
    this.path = path;
    this.physical = leaf.type();
    LogicalType t = leaf.logicalType();
    this.unsigned = t instanceof LogicalType.IntType i && !i.signed();
    TimeUnit unit =
        t instanceof LogicalType.TimestampType ts
            ? ts.unit()
            : t instanceof LogicalType.TimeType tt ? tt.unit() : TimeUnit.MILLIS;
    this.unitsPerMilli =
        unit == TimeUnit.MICROS ? 1_000L : unit == TimeUnit.NANOS ? 1_000_000L : 1L;
    this.parquetScale = t instanceof LogicalType.DecimalType d ? d.scale() : 0;
    this.connectScale = parquetScale;
    this.optional = leaf.isOptional();
    init(scope, def, rep, rep - (leaf.isRepeated() ? 1 : 0), new ColumnCursor[] {column});
  }

  /** The conversion of a leaf to a Connect kind (the shapes ParquetToConnect.fits allows). */
  static int conversion(PrimitiveNode leaf, Schema schema, ConnectTypes.Kind kind, String path) {
    PhysicalType physical = leaf.type();
    LogicalType t = leaf.logicalType();
    return switch (kind) {
      case BOOLEAN -> BOOLEAN;
      case INT8 -> INT8;
      case INT16 -> INT16;
      case INT32 -> INT32;
      case INT64 -> INT64;
      case FLOAT32 ->
          physical == PhysicalType.FLOAT
              ? FLOAT
              : t instanceof LogicalType.Float16Type ? HALF_FLOAT : MISMATCH;
      case FLOAT64 -> DOUBLE;
      case STRING -> t instanceof LogicalType.UuidType ? UUID : STRING;
      case BYTES -> BYTES;
      case DECIMAL -> DECIMAL;
      case DATE -> DATE;
      case TIME -> TIME;
      case TIMESTAMP -> physical == PhysicalType.INT96 ? INT96_TIMESTAMP : TIMESTAMP;
      default -> throw ParquetToConnect.mismatch(path, leaf, schema);
    };
  }

  /** Whether the current entry holds this leaf's value (else it is absent, or corrupt). */
  boolean present() throws IOException, ParquetException {
    int d = column.def();
    if (d == def) {
      return true;
    }
    if (optional && d >= 0 && d < def) {
      return false;
    }
    throw scope.corrupt(
        column,
        d < 0
            ? "the column ends inside the row"
            : "definition level " + d + " where the schema requires a value (level " + def + ")");
  }

  void consume() {
    column.advance();
  }

  /** The current entry's value as the Row model boxes it (null when absent or binary). */
  Object physicalValue() throws IOException, ParquetException {
    ColumnCursor c = column;
    if (c.def() != def) {
      return null;
    }
    int i = c.valueIndex;
    return switch (physical) {
      case BOOLEAN -> c.booleans[i];
      case INT32 -> c.ints[i];
      case INT64 -> c.longs[i];
      case FLOAT -> c.floats[i];
      case DOUBLE -> c.doubles[i];
      default -> null;
    };
  }

  @Override
  Object read() throws IOException, ParquetException {
    ColumnCursor c = column;
    int d = c.def();
    if (d == def) {
      Object v = convert(c);
      c.advance();
      return v;
    }
    return absent(c, d);
  }

  /** An entry without this leaf's value: null for an optional leaf, else corrupt. */
  final Object absent(ColumnCursor c, int d) throws ParquetException {
    if (optional && d >= 0 && d < def) {
      c.advance();
      return null;
    }
    throw scope.corrupt(
        c,
        d < 0
            ? "the column ends inside the row"
            : "definition level " + d + " where the schema requires a value (level " + def + ")");
  }

  private Object convert(ColumnCursor c) {
    int i = c.valueIndex;
    switch (conversion) {
      case BOOLEAN:
        return c.booleans != null ? Boolean.valueOf(c.booleans[i]) : mismatchValue();
      case INT8:
        return (byte) integer(c, i);
      case INT16:
        return (short) integer(c, i);
      case INT32:
        return (int) integer(c, i);
      case INT64:
        return integer(c, i);
      case FLOAT:
        return c.floats[i];
      case HALF_FLOAT:
        {
          int e = c.entry(i);
          int off = c.offsets[e];
          if (c.offsets[e + 1] - off < 2) {
            throw new DataException("field " + path + ": a FLOAT16 value of fewer than 2 bytes");
          }
          return ParquetValues.halfToFloat(c.data, off);
        }
      case DOUBLE:
        return c.doubles != null ? c.doubles[i] : (double) c.floats[i];
      case STRING:
        return string(c, i);
      case UUID:
        return c.dictionary != null ? shared(c, i) : uuid(c, i);
      case BYTES:
        {
          // Always a fresh copy, dictionary-encoded or not: Connect lets its users mutate it.
          int e = c.entry(i);
          return Arrays.copyOfRange(c.data, c.offsets[e], c.offsets[e + 1]);
        }
      case DECIMAL:
        return c.dictionary != null ? shared(c, i) : decimal(c, i);
      case DATE:
        return new java.util.Date(integer(c, i) * ConnectRecordReader.MILLIS_PER_DAY);
      case TIME:
        return new java.util.Date(Math.floorDiv(integer(c, i), unitsPerMilli));
      case TIMESTAMP:
        return new java.util.Date(Math.floorDiv(c.longs[i], unitsPerMilli));
      case INT96_TIMESTAMP:
        return new java.util.Date(ParquetValues.int96Millis(c.data, c.offsets[c.entry(i)]));
      default:
        return mismatchValue();
    }
  }

  /**
   * The UUID text or decimal of dictionary-encoded value {@code i}, converted once per dictionary
   * entry: both are immutable, so records may share them.
   */
  private Object shared(ColumnCursor c, int i) {
    Dictionary d = c.dictionary;
    if (d != sharedDictionary) {
      sharedValues = new Object[d.size()];
      sharedDictionary = d;
    }
    int e = c.indices[i];
    Object v = sharedValues[e];
    if (v == null) {
      v = conversion == UUID ? uuid(c, e) : decimal(c, i);
      sharedValues[e] = v;
    }
    return v;
  }

  private String uuid(ColumnCursor c, int e) {
    int off = c.offsets[e];
    if (c.offsets[e + 1] - off < 16) {
      throw new DataException("field " + path + ": a UUID of fewer than 16 bytes");
    }
    return ParquetValues.uuidText(c.data, off);
  }

  private Object mismatchValue() {
    throw new DataException(
        "field " + path + ": a " + physical + " value cannot become the metadata schema's type");
  }

  private long integer(ColumnCursor c, int i) {
    if (c.ints != null) {
      int v = c.ints[i];
      return unsigned ? Integer.toUnsignedLong(v) : v;
    }
    return c.longs[i];
  }

  private String string(ColumnCursor c, int i) {
    return c.string(i, strings);
  }

  /**
   * Whether big-endian two's complement {@code data[off, off + len)} fits a long: 8 bytes or fewer,
   * or only sign bytes before the last 8 (a wide FIXED decimal holding a small value).
   */
  private static boolean fitsLong(byte[] data, int off, int len) {
    if (len <= 8) {
      return true;
    }
    int low = off + len - 8;
    byte sign = (byte) (data[low] >> 7);
    for (int b = off; b < low; b++) {
      if (data[b] != sign) {
        return false;
      }
    }
    return true;
  }

  private BigDecimal decimal(ColumnCursor c, int i) {
    BigDecimal value;
    if (c.ints != null) {
      value = BigDecimal.valueOf(c.ints[i], parquetScale);
    } else if (c.longs != null) {
      long l = c.longs[i];
      value =
          unsigned && l < 0
              ? new BigDecimal(new BigInteger(Long.toUnsignedString(l)), parquetScale)
              : BigDecimal.valueOf(l, parquetScale);
    } else {
      int e = c.entry(i);
      int off = c.offsets[e];
      int len = c.offsets[e + 1] - off;
      if (fitsLong(c.data, off, len)) {
        // Big-endian two's complement that fits a long: no BigInteger needed.
        long unscaled = len == 0 ? 0 : c.data[off];
        for (int b = 1; b < len; b++) {
          unscaled = unscaled << 8 | (c.data[off + b] & 0xFF);
        }
        value = BigDecimal.valueOf(unscaled, parquetScale);
      } else {
        value = new BigDecimal(new BigInteger(c.data, off, len), parquetScale);
      }
    }
    return ParquetValues.toConnectScale(value, connectScale, path);
  }
}
