package dev.parquetconnect.cli;

import dev.parquetconnect.format.meta.TimeUnit;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;

/**
 * Turns physical values into what their logical type means, as text: decimals, dates, times,
 * timestamps (at their unit's precision), INT96 timestamps, UUIDs, half floats and intervals.
 * Shared by {@code pq cat} (values) and {@code pq meta} (statistics bounds).
 */
final class LogicalValues {
  /** The Julian day number of 1970-01-01, the epoch of INT96 timestamps' day field. */
  static final long JULIAN_DAY_OF_EPOCH = 2_440_588;

  private static final long SECONDS_PER_DAY = 86_400;
  private static final long NANOS_PER_DAY = SECONDS_PER_DAY * 1_000_000_000L;
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private LogicalValues() {}

  /** A DECIMAL's value from its big-endian two's complement unscaled bytes. */
  static BigDecimal decimal(byte[] unscaled, int scale) {
    // An empty unscaled value is malformed; zero is what every reader we know makes of it.
    BigInteger value = unscaled.length == 0 ? BigInteger.ZERO : new BigInteger(unscaled);
    return new BigDecimal(value, scale);
  }

  static BigDecimal decimal(long unscaled, int scale) {
    return BigDecimal.valueOf(unscaled, scale);
  }

  /** A DATE (days since 1970-01-01) in ISO form, {@code 2024-02-29}. */
  static String date(int daysSinceEpoch) {
    return LocalDate.ofEpochDay(daysSinceEpoch).toString();
  }

  /** The number of units in one second. */
  static long unitsPerSecond(TimeUnit unit) {
    return switch (unit) {
      case MILLIS -> 1_000L;
      case MICROS -> 1_000_000L;
      case NANOS -> 1_000_000_000L;
    };
  }

  private static int fractionDigits(TimeUnit unit) {
    return switch (unit) {
      case MILLIS -> 3;
      case MICROS -> 6;
      case NANOS -> 9;
    };
  }

  /**
   * A TIME (units since midnight) as {@code HH:mm:ss.fff} with the unit's digits and {@code Z} when
   * adjusted to UTC; null when the value is not a time of day (negative, a day or more).
   */
  static String time(long units, TimeUnit unit, boolean utc) {
    long perSecond = unitsPerSecond(unit);
    if (units < 0 || units >= SECONDS_PER_DAY * perSecond) {
      return null;
    }
    StringBuilder out = new StringBuilder(20);
    appendClock(out, units / perSecond, units % perSecond, unit);
    if (utc) {
      out.append('Z');
    }
    return out.toString();
  }

  /**
   * A TIMESTAMP (units since the epoch) in ISO form, {@code 2024-01-02T03:04:05.123456}, with the
   * unit's digits and {@code Z} when adjusted to UTC (an instant) rather than local.
   */
  static String timestamp(long units, TimeUnit unit, boolean utc) {
    long perSecond = unitsPerSecond(unit);
    long seconds = Math.floorDiv(units, perSecond);
    long fraction = Math.floorMod(units, perSecond);
    long days = Math.floorDiv(seconds, SECONDS_PER_DAY);
    long secondOfDay = Math.floorMod(seconds, SECONDS_PER_DAY);
    StringBuilder out = new StringBuilder(32);
    out.append(LocalDate.ofEpochDay(days)).append('T');
    appendClock(out, secondOfDay, fraction, unit);
    if (utc) {
      out.append('Z');
    }
    return out.toString();
  }

  /**
   * An INT96 timestamp (8 bytes of nanoseconds in the day, then 4 of the Julian day, both
   * little-endian) in ISO form with nanosecond digits. INT96 says nothing of time zones, so no
   * {@code Z}. Null for a value that is not 12 bytes.
   */
  static String int96(byte[] bytes) {
    if (bytes.length != 12) {
      return null;
    }
    long nanosOfDay = 0;
    for (int i = 7; i >= 0; i--) {
      nanosOfDay = (nanosOfDay << 8) | (bytes[i] & 0xFF);
    }
    int julianDay =
        (bytes[8] & 0xFF)
            | (bytes[9] & 0xFF) << 8
            | (bytes[10] & 0xFF) << 16
            | (bytes[11] & 0xFF) << 24;
    // Writers keep nanosOfDay within the day; a value outside it still names one instant.
    long days = julianDay - JULIAN_DAY_OF_EPOCH + Math.floorDiv(nanosOfDay, NANOS_PER_DAY);
    long nanos = Math.floorMod(nanosOfDay, NANOS_PER_DAY);
    StringBuilder out = new StringBuilder(32);
    out.append(LocalDate.ofEpochDay(days)).append('T');
    appendClock(out, nanos / 1_000_000_000L, nanos % 1_000_000_000L, TimeUnit.NANOS);
    return out.toString();
  }

  private static void appendClock(
      StringBuilder out, long secondOfDay, long fraction, TimeUnit unit) {
    appendTwoDigits(out, secondOfDay / 3600);
    out.append(':');
    appendTwoDigits(out, secondOfDay / 60 % 60);
    out.append(':');
    appendTwoDigits(out, secondOfDay % 60);
    out.append('.');
    String digits = Long.toString(fraction);
    for (int i = digits.length(); i < fractionDigits(unit); i++) {
      out.append('0');
    }
    out.append(digits);
  }

  private static void appendTwoDigits(StringBuilder out, long value) {
    out.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
  }

  /** A UUID's 16 bytes in canonical form; null for another length. */
  static String uuid(byte[] bytes) {
    if (bytes.length != 16) {
      return null;
    }
    StringBuilder out = new StringBuilder(36);
    for (int i = 0; i < 16; i++) {
      if (i == 4 || i == 6 || i == 8 || i == 10) {
        out.append('-');
      }
      out.append(HEX[(bytes[i] >> 4) & 0xF]).append(HEX[bytes[i] & 0xF]);
    }
    return out.toString();
  }

  /** A FLOAT16 (IEEE 754 binary16, little-endian) widened exactly to a float. */
  static float float16(byte[] bytes) {
    int bits = (bytes[0] & 0xFF) | (bytes[1] & 0xFF) << 8;
    int sign = bits >>> 15;
    int exponent = (bits >>> 10) & 0x1F;
    int mantissa = bits & 0x3FF;
    float magnitude;
    if (exponent == 0x1F) {
      magnitude = mantissa == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
    } else if (exponent == 0) {
      magnitude = mantissa * 0x1p-24f; // subnormal: mantissa x 2^-24
    } else {
      magnitude = Float.intBitsToFloat((exponent - 15 + 127) << 23 | mantissa << 13);
    }
    return sign == 0 ? magnitude : -magnitude;
  }

  /**
   * An INTERVAL (three little-endian unsigned 32-bit counts: months, days, milliseconds) as a JSON
   * object; null for a value that is not 12 bytes.
   */
  static String interval(byte[] bytes) {
    if (bytes.length != 12) {
      return null;
    }
    return "{\"months\":"
        + unsignedIntAt(bytes, 0)
        + ",\"days\":"
        + unsignedIntAt(bytes, 4)
        + ",\"milliseconds\":"
        + unsignedIntAt(bytes, 8)
        + "}";
  }

  private static long unsignedIntAt(byte[] b, int at) {
    return (b[at] & 0xFFL)
        | (b[at + 1] & 0xFFL) << 8
        | (b[at + 2] & 0xFFL) << 16
        | (b[at + 3] & 0xFFL) << 24;
  }
}
