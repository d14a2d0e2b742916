package dev.parquetconnect.format.filter;

import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.write.XxHash64;

/**
 * One condition on one column, fitted to its physical type: the literals converted to the values
 * the column stores (longs, doubles or bytes) and compared the way its type orders them. The leaves
 * of a {@link BoundPredicate} carry no NOT: it was pushed into the operators when binding.
 */
final class Leaf {
  /** The comparison a leaf makes, negations included. */
  enum Test {
    EQ,
    NE,
    LT,
    LE,
    GT,
    GE,
    IN,
    NOT_IN,
    IS_NULL,
    IS_NOT_NULL
  }

  /** How values of the column compare. */
  enum Kind {
    /** BOOLEAN as 0/1, signed INT32/INT64 (dates, times, timestamps, decimals). */
    SIGNED,
    /** An INT32 annotated unsigned: its 32 bits as a non-negative long. */
    UNSIGNED_INT32,
    /** An INT64 annotated unsigned: compared as unsigned 64-bit. */
    UNSIGNED_INT64,
    /** FLOAT (widened) or DOUBLE; NaN equals NaN and is above everything. */
    FLOATING,
    /** Byte strings, compared as unsigned bytes, lexicographically. */
    BINARY,
    /** A DECIMAL in big-endian two's complement bytes of any length. */
    BINARY_DECIMAL
  }

  final ColumnDescriptor column;
  final int index;
  final Kind kind;
  final Test test;
  final long[] longs;
  final double[] doubles;
  final byte[][] binaries;

  Leaf(
      ColumnDescriptor column,
      Kind kind,
      Test test,
      long[] longs,
      double[] doubles,
      byte[][] binaries) {
    this.column = column;
    this.index = column.index();
    this.kind = kind;
    this.test = test;
    this.longs = longs;
    this.doubles = doubles;
    this.binaries = binaries;
  }

  /** Whether the current row's value makes this condition true. */
  boolean test(RowValues row) {
    if (row.isNull(index)) {
      return test == Test.IS_NULL;
    }
    return switch (test) {
      case IS_NULL -> false;
      case IS_NOT_NULL -> true;
      case EQ -> compareRow(row, 0) == 0;
      case NE -> compareRow(row, 0) != 0;
      case LT -> compareRow(row, 0) < 0;
      case LE -> compareRow(row, 0) <= 0;
      case GT -> compareRow(row, 0) > 0;
      case GE -> compareRow(row, 0) >= 0;
      case IN -> {
        for (int i = 0; i < literalCount(); i++) {
          if (compareRow(row, i) == 0) {
            yield true;
          }
        }
        yield false;
      }
      case NOT_IN -> {
        for (int i = 0; i < literalCount(); i++) {
          if (compareRow(row, i) == 0) {
            yield false;
          }
        }
        yield true;
      }
    };
  }

  int literalCount() {
    return switch (kind) {
      case FLOATING -> doubles.length;
      case BINARY, BINARY_DECIMAL -> binaries.length;
      default -> longs.length;
    };
  }

  /** The row's value compared with literal {@code i}. */
  private int compareRow(RowValues row, int i) {
    return switch (kind) {
      case SIGNED -> Long.compare(row.longValue(index), longs[i]);
      case UNSIGNED_INT32 -> Long.compare(row.longValue(index) & 0xFFFFFFFFL, longs[i]);
      case UNSIGNED_INT64 -> Long.compareUnsigned(row.longValue(index), longs[i]);
      case FLOATING -> compareDoubles(row.doubleValue(index), doubles[i]);
      case BINARY ->
          compareUnsigned(
              row.binaryArray(index),
              row.binaryOffset(index),
              row.binaryLength(index),
              binaries[i],
              0,
              binaries[i].length);
      case BINARY_DECIMAL ->
          compareTwosComplement(
              row.binaryArray(index),
              row.binaryOffset(index),
              row.binaryLength(index),
              binaries[i],
              0,
              binaries[i].length);
    };
  }

  // ---- pruning

  /**
   * Whether some value within {@code bounds} could make this condition true: false only when the
   * bounds prove that none can. Unknown counts or bounds keep the rows.
   */
  boolean mightMatch(ColumnBounds bounds) {
    switch (test) {
      case IS_NULL:
        return bounds.nullCount != 0;
      case IS_NOT_NULL:
        return !bounds.allNull();
      default:
        break;
    }
    if (bounds.allNull()) {
      return false; // every comparison with a null is unknown
    }
    if (!bounds.hasMinMax) {
      return true;
    }
    boolean nanPossible = kind == Kind.FLOATING && bounds.nanCount != 0;
    return switch (test) {
      case EQ -> mightEqual(bounds, 0, nanPossible);
      case IN -> {
        for (int i = 0; i < literalCount(); i++) {
          if (mightEqual(bounds, i, nanPossible)) {
            yield true;
          }
        }
        yield false;
      }
      case LT -> isNaNLiteral(0) || compareBound(bounds, true, 0) < 0;
      case LE -> isNaNLiteral(0) || compareBound(bounds, true, 0) <= 0;
      case GT -> isNaNLiteral(0) || nanPossible || compareBound(bounds, false, 0) > 0;
      case GE -> isNaNLiteral(0) || nanPossible || compareBound(bounds, false, 0) >= 0;
      // Bounds rarely prove that every value equals a literal: never pruned.
      default -> true;
    };
  }

  private boolean mightEqual(ColumnBounds bounds, int i, boolean nanPossible) {
    if (isNaNLiteral(i)) {
      return nanPossible;
    }
    return compareBound(bounds, true, i) <= 0 && compareBound(bounds, false, i) >= 0;
  }

  private boolean isNaNLiteral(int i) {
    return kind == Kind.FLOATING && Double.isNaN(doubles[i]);
  }

  /** The bound ({@code min} or the max) compared with literal {@code i}. */
  private int compareBound(ColumnBounds b, boolean min, int i) {
    return switch (kind) {
      case SIGNED, UNSIGNED_INT32 -> Long.compare(min ? b.minLong : b.maxLong, longs[i]);
      case UNSIGNED_INT64 -> Long.compareUnsigned(min ? b.minLong : b.maxLong, longs[i]);
      case FLOATING -> compareDoubles(min ? b.minDouble : b.maxDouble, doubles[i]);
      case BINARY -> {
        byte[] bound = min ? b.minBytes : b.maxBytes;
        yield compareUnsigned(bound, 0, bound.length, binaries[i], 0, binaries[i].length);
      }
      case BINARY_DECIMAL -> {
        byte[] bound = min ? b.minBytes : b.maxBytes;
        yield compareTwosComplement(bound, 0, bound.length, binaries[i], 0, binaries[i].length);
      }
    };
  }

  /**
   * The hashes a bloom filter must hold for this condition to match a row: one per literal of an EQ
   * or IN, two for a floating zero (0.0 and -0.0 are equal but hash apart); null when a bloom
   * filter cannot decide (another test, NaN, a decimal whose byte width varies).
   */
  long[][] bloomHashes() {
    if (test != Test.EQ && test != Test.IN) {
      return null;
    }
    long[][] hashes = new long[literalCount()][];
    for (int i = 0; i < hashes.length; i++) {
      long[] h = literalHashes(i);
      if (h == null) {
        return null;
      }
      hashes[i] = h;
    }
    return hashes;
  }

  private long[] literalHashes(int i) {
    switch (column.primitive().type()) {
      case INT32:
        return kind == Kind.SIGNED || kind == Kind.UNSIGNED_INT32
            ? new long[] {XxHash64.hashInt((int) longs[i])}
            : null;
      case INT64:
        return new long[] {XxHash64.hashLong(longs[i])};
      case FLOAT:
        {
          double d = doubles[i];
          float f = (float) d;
          if (Double.isNaN(d) || (double) f != d) {
            return null;
          }
          if (f == 0f) {
            return new long[] {
              XxHash64.hashInt(Float.floatToRawIntBits(0f)),
              XxHash64.hashInt(Float.floatToRawIntBits(-0f))
            };
          }
          return new long[] {XxHash64.hashInt(Float.floatToRawIntBits(f))};
        }
      case DOUBLE:
        {
          double d = doubles[i];
          if (Double.isNaN(d)) {
            return null;
          }
          if (d == 0d) {
            return new long[] {
              XxHash64.hashLong(Double.doubleToRawLongBits(0d)),
              XxHash64.hashLong(Double.doubleToRawLongBits(-0d))
            };
          }
          return new long[] {XxHash64.hashLong(Double.doubleToRawLongBits(d))};
        }
      case BYTE_ARRAY:
      case FIXED_LEN_BYTE_ARRAY:
        return kind == Kind.BINARY
            ? new long[] {XxHash64.hash(binaries[i], 0, binaries[i].length)}
            : null;
      default:
        return null;
    }
  }

  // ---- orders

  /** NaN equals NaN and is above every other value; -0.0 equals 0.0 (SQL's order). */
  static int compareDoubles(double a, double b) {
    if (a < b) {
      return -1;
    }
    if (a > b) {
      return 1;
    }
    if (a == b) {
      return 0;
    }
    boolean nanA = Double.isNaN(a);
    boolean nanB = Double.isNaN(b);
    return nanA == nanB ? 0 : nanA ? 1 : -1;
  }

  /** Lexicographic order of unsigned bytes, a shorter prefix first. */
  static int compareUnsigned(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    int n = Math.min(aLen, bLen);
    for (int i = 0; i < n; i++) {
      int x = a[aOff + i] & 0xFF;
      int y = b[bOff + i] & 0xFF;
      if (x != y) {
        return x < y ? -1 : 1;
      }
    }
    return Integer.compare(aLen, bLen);
  }

  /**
   * Numeric order of two big-endian two's complement integers of any lengths (an empty array is 0),
   * as if both were sign-extended to the longer length.
   */
  static int compareTwosComplement(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    boolean negA = aLen > 0 && a[aOff] < 0;
    boolean negB = bLen > 0 && b[bOff] < 0;
    if (negA != negB) {
      return negA ? -1 : 1;
    }
    int len = Math.max(aLen, bLen);
    int padA = negA ? 0xFF : 0;
    int padB = negB ? 0xFF : 0;
    for (int i = 0; i < len; i++) {
      int ia = i - (len - aLen);
      int ib = i - (len - bLen);
      int x = ia < 0 ? padA : a[aOff + ia] & 0xFF;
      int y = ib < 0 ? padB : b[bOff + ib] & 0xFF;
      if (x != y) {
        return x < y ? -1 : 1;
      }
    }
    return 0;
  }
}
