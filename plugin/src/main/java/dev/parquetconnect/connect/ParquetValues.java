package dev.parquetconnect.connect;

import dev.parquetconnect.format.io.LittleEndian;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.UUID;
import org.apache.kafka.connect.errors.DataException;

/**
 * Parquet values as the Connect values of {@link ParquetToConnect}'s mapping, where the conversion
 * is more than a cast: decimals at the Connect scale, UUIDs as text, FLOAT16 and INT96 timestamps.
 * Shared by the source's leaf readers ({@link Leaf}) and the tests' oracle.
 */
final class ParquetValues {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  /** The Julian day number of 1970-01-01, where INT96 timestamps count days from. */
  private static final long JULIAN_EPOCH_DAY = 2_440_588L;

  private ParquetValues() {}

  /**
   * The decimal at the Connect schema's scale: the file may store more trailing zeros (or fewer)
   * than the schema asks for, but never a value the schema's scale cannot hold.
   */
  static BigDecimal toConnectScale(BigDecimal value, int connectScale, Object path) {
    if (value.scale() == connectScale) {
      return value;
    }
    try {
      return value.setScale(connectScale, RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new DataException(
          "field " + path + ": decimal " + value + " does not have scale " + connectScale, e);
    }
  }

  /** The canonical text of a UUID stored big-endian in {@code b[off, off + 16)}. */
  static String uuidText(byte[] b, int off) {
    long msb = 0;
    long lsb = 0;
    for (int i = off; i < off + 8; i++) {
      msb = msb << 8 | (b[i] & 0xFF);
      lsb = lsb << 8 | (b[i + 8] & 0xFF);
    }
    return new UUID(msb, lsb).toString();
  }

  /**
   * An IEEE 754 half-precision value, stored little-endian in {@code b[off, off + 2)}, as a float
   * (exact).
   */
  static float halfToFloat(byte[] b, int off) {
    int bits = (b[off] & 0xFF) | (b[off + 1] & 0xFF) << 8;
    int sign = (bits & 0x8000) << 16;
    int exponent = (bits >>> 10) & 0x1F;
    int mantissa = bits & 0x3FF;
    if (exponent == 0x1F) {
      return Float.intBitsToFloat(sign | 0x7F80_0000 | mantissa << 13);
    }
    if (exponent == 0) {
      // zero or subnormal: mantissa * 2^-24, exact in a float
      float magnitude = mantissa * 0x1p-24f;
      return sign == 0 ? magnitude : -magnitude;
    }
    return Float.intBitsToFloat(sign | (exponent + 112) << 23 | mantissa << 13);
  }

  /**
   * Epoch milliseconds of an INT96 timestamp at {@code b[off, off + 12)}: nanoseconds of the day,
   * then the Julian day.
   */
  static long int96Millis(byte[] b, int off) {
    long nanosOfDay = LittleEndian.getLong(b, off);
    long julianDay = Integer.toUnsignedLong(LittleEndian.getInt(b, off + 8));
    return (julianDay - JULIAN_EPOCH_DAY) * MILLIS_PER_DAY + Math.floorDiv(nanosOfDay, 1_000_000L);
  }
}
