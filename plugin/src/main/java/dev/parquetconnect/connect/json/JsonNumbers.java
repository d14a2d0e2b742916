package dev.parquetconnect.connect.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Reads a JSON number from its bytes. The grammar is JSON's with leading zeros allowed (as
 * JsonConverter's Jackson allows them); at most {@link JsonReader#MAX_NUMBER_LENGTH} digits.
 *
 * <p>Values are JsonConverter's: an integer is a {@code long} (one beyond 64 bits keeps its low 64
 * bits, as {@code BigInteger.longValue} gives Connect); any other number is the {@code double}
 * nearest its exact decimal value ({@code BigDecimal.doubleValue}, so {@code -0.0} is {@code 0.0}
 * and a value beyond the double range is infinite). Up to 15 significant digits and a power of ten
 * up to 22 the double comes from one exact multiplication or division, which rounds correctly; only
 * longer numbers go through {@code BigDecimal}.
 */
final class JsonNumbers {
  private static final double[] POWERS_OF_TEN = new double[23];

  static {
    double p = 1;
    for (int i = 0; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = p;
      p *= 10;
    }
  }

  private int end;

  /** The position after the number last read. */
  int end() {
    return end;
  }

  /** Reads a number in schemaless form: {@code Long} or {@code Double}. */
  Object read(JsonReader reader, byte[] buf, int start, int limit) throws MalformedJsonException {
    Shape s = scan(reader, buf, start, limit);
    if (!s.fraction && !s.exponent) {
      if (s.intDigits <= 18) {
        return s.negative ? -s.mantissa : s.mantissa;
      }
      return bigInteger(buf, start).longValue();
    }
    if (s.significant <= 15 && s.mantissa != 0) {
      long exp10 = s.exponentValue - s.fractionDigits;
      if (exp10 >= -22 && exp10 <= 22) {
        double m = s.negative ? -(double) s.mantissa : (double) s.mantissa;
        return exp10 >= 0 ? m * POWERS_OF_TEN[(int) exp10] : m / POWERS_OF_TEN[(int) -exp10];
      }
    }
    return bigDecimal(reader, buf, start).doubleValue();
  }

  /** {@link #readPrimitive}: not of the common kinds below (the exact form decides its value). */
  static final int OTHER = 0;

  /** {@link #readPrimitive}: an integer of at most 18 digits, in {@link #longValue()}. */
  static final int INTEGER = 1;

  /**
   * {@link #readPrimitive}: a fraction whose double is exact arithmetic, {@link #doubleValue()}.
   */
  static final int FRACTION = 2;

  private long longValue;
  private double doubleValue;

  /**
   * Reads a number into a primitive, where that needs no object: {@link #INTEGER} or {@link
   * #FRACTION}, the values those of {@link #readExact} ({@code Long}, and {@code BigDecimal}'s
   * double, which the exact multiplication or division gives); else {@link #OTHER}. Sets {@link
   * #end} either way.
   */
  int readPrimitive(JsonReader reader, byte[] buf, int start, int limit)
      throws MalformedJsonException {
    Shape s = scan(reader, buf, start, limit);
    if (!s.fraction && !s.exponent) {
      if (s.intDigits <= 18) {
        longValue = s.negative ? -s.mantissa : s.mantissa;
        return INTEGER;
      }
      return OTHER;
    }
    if (s.significant <= 15 && s.mantissa != 0) {
      long exp10 = s.exponentValue - s.fractionDigits;
      if (exp10 >= -22 && exp10 <= 22) {
        double m = s.negative ? -(double) s.mantissa : (double) s.mantissa;
        doubleValue = exp10 >= 0 ? m * POWERS_OF_TEN[(int) exp10] : m / POWERS_OF_TEN[(int) -exp10];
        return FRACTION;
      }
    }
    return OTHER;
  }

  /** {@link #readDecimal}: a decimal of at most 18 significant digits, in {@link #longValue()}. */
  static final int DECIMAL = 3;

  /** Beyond this power of ten a decimal's scale is left to BigDecimal (and its errors). */
  private static final long MAX_DECIMAL_EXPONENT = 1_000_000;

  private int decimalScale;

  /**
   * Reads a number as the {@code BigDecimal} of its text (JsonConverter's exact form of a decimal:
   * every digit written, trailing zeros included, is in the unscaled value; the scale is the
   * fraction's digits less the exponent): {@link #DECIMAL} with the unscaled value in {@link
   * #longValue()} and the scale in {@link #decimalScale()} when it has at most 18 significant
   * digits; else {@link #OTHER}. Sets {@link #end} either way.
   */
  int readDecimal(JsonReader reader, byte[] buf, int start, int limit)
      throws MalformedJsonException {
    Shape s = scan(reader, buf, start, limit);
    if (s.significant > 18
        || s.exponentValue > MAX_DECIMAL_EXPONENT
        || s.exponentValue < -MAX_DECIMAL_EXPONENT) {
      return OTHER;
    }
    longValue = s.negative ? -s.mantissa : s.mantissa;
    decimalScale = (int) (s.fractionDigits - s.exponentValue);
    return DECIMAL;
  }

  int decimalScale() {
    return decimalScale;
  }

  long longValue() {
    return longValue;
  }

  double doubleValue() {
    return doubleValue;
  }

  /** Checks a number without making its value (sets {@link #end}). */
  void skip(JsonReader reader, byte[] buf, int start, int limit) throws MalformedJsonException {
    Shape s = scan(reader, buf, start, limit);
    if ((s.fraction || s.exponent)
        && (s.exponentValue > Integer.MAX_VALUE || s.exponentValue < Integer.MIN_VALUE)) {
      bigDecimal(reader, buf, start);
    }
  }

  /** Reads a number exactly: {@code Long}, {@code BigInteger} or {@code BigDecimal}. */
  Object readExact(JsonReader reader, byte[] buf, int start, int limit)
      throws MalformedJsonException {
    Shape s = scan(reader, buf, start, limit);
    if (!s.fraction && !s.exponent) {
      if (s.intDigits <= 18) {
        return s.negative ? -s.mantissa : s.mantissa;
      }
      BigInteger big = bigInteger(buf, start);
      return big.bitLength() < 64 ? (Object) big.longValue() : big;
    }
    return bigDecimal(reader, buf, start);
  }

  private BigInteger bigInteger(byte[] buf, int start) {
    return new BigInteger(new String(buf, start, end - start, StandardCharsets.ISO_8859_1));
  }

  private BigDecimal bigDecimal(JsonReader reader, byte[] buf, int start)
      throws MalformedJsonException {
    try {
      return new BigDecimal(new String(buf, start, end - start, StandardCharsets.ISO_8859_1));
    } catch (NumberFormatException e) {
      // An exponent beyond the int range: Jackson cannot read it either.
      throw reader.errorAt("malformed number (exponent out of range)", start);
    }
  }

  /** What the scan of one number found; reused (one reader per thread). */
  private static final class Shape {
    boolean negative;
    boolean fraction;
    boolean exponent;
    int intDigits;
    int fractionDigits;
    int significant;
    long mantissa;
    long exponentValue;
  }

  private final Shape shape = new Shape();

  private Shape scan(JsonReader reader, byte[] buf, int start, int limit)
      throws MalformedJsonException {
    Shape s = shape;
    s.negative = false;
    s.fraction = false;
    s.exponent = false;
    s.intDigits = 0;
    s.fractionDigits = 0;
    s.significant = 0;
    s.mantissa = 0;
    s.exponentValue = 0;
    int p = start;
    if (buf[p] == '-') {
      s.negative = true;
      p++;
    }
    int digitsStart = p;
    while (p < limit && buf[p] >= '0' && buf[p] <= '9') {
      accumulate(s, buf[p]);
      p++;
    }
    s.intDigits = p - digitsStart;
    if (s.intDigits == 0) {
      throw reader.errorAt("a digit expected after '-'", p);
    }
    if (p < limit && buf[p] == '.') {
      s.fraction = true;
      p++;
      int fractionStart = p;
      while (p < limit && buf[p] >= '0' && buf[p] <= '9') {
        accumulate(s, buf[p]);
        p++;
      }
      s.fractionDigits = p - fractionStart;
      if (s.fractionDigits == 0) {
        throw reader.errorAt("a digit expected after the decimal point", p);
      }
    }
    int exponentDigits = 0;
    if (p < limit && (buf[p] == 'e' || buf[p] == 'E')) {
      s.exponent = true;
      p++;
      boolean negativeExponent = false;
      if (p < limit && (buf[p] == '+' || buf[p] == '-')) {
        negativeExponent = buf[p] == '-';
        p++;
      }
      int exponentStart = p;
      long e = 0;
      while (p < limit && buf[p] >= '0' && buf[p] <= '9') {
        if (e < 1_000_000_000_000L) {
          e = e * 10 + (buf[p] - '0');
        }
        p++;
      }
      exponentDigits = p - exponentStart;
      if (exponentDigits == 0) {
        throw reader.errorAt("a digit expected in the exponent", p);
      }
      s.exponentValue = negativeExponent ? -e : e;
    }
    if (s.intDigits + s.fractionDigits + exponentDigits > JsonReader.MAX_NUMBER_LENGTH) {
      throw reader.errorAt("number longer than " + JsonReader.MAX_NUMBER_LENGTH + " digits", start);
    }
    end = p;
    return s;
  }

  /** Adds a digit to the mantissa while it has at most 18 significant digits. */
  private static void accumulate(Shape s, byte digit) {
    if (s.significant == 0 && digit == '0') {
      return; // a leading zero adds nothing
    }
    s.significant++;
    if (s.significant <= 18) {
      s.mantissa = s.mantissa * 10 + (digit - '0');
    }
  }
}
