package dev.parquetconnect.connect;

import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.LogicalTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;

/**
 * How a Connect Decimal is stored: Parquet DECIMAL(precision, scale) on the smallest physical type
 * that holds the precision (INT32 up to 9 digits, INT64 up to 18, else a FIXED_LEN_BYTE_ARRAY of
 * the fewest bytes).
 *
 * <p>The precision comes from the {@code connect.decimal.precision} schema parameter (Avro and
 * Protobuf converters set it); without it a Connect Decimal has no bound, and we use 38 digits in
 * 16 bytes, the common engines' maximum, so DuckDB, Spark and Trino read the column as a decimal. A
 * value with more digits than the precision is a {@link DataException} (the record goes to the dead
 * letter queue); it is never rounded.
 *
 * <p>Parquet has no negative scale; a Connect scale {@code s < 0} (Connect allows it) is stored at
 * scale 0 with {@code -s} more digits of precision, which is exact, and the schema kept in the file
 * metadata gives the reader the original scale back.
 *
 * @param connectScale the scale of the Connect schema
 * @param scale the Parquet scale (the Connect scale, or 0 when that is negative)
 * @param precision the Parquet precision
 * @param type INT32, INT64 or FIXED_LEN_BYTE_ARRAY
 * @param byteLength the FIXED_LEN_BYTE_ARRAY length (0 for the integer types)
 */
record DecimalLayout(
    int connectScale, int scale, int precision, PhysicalType type, int byteLength) {
  /** Digits a Connect Decimal without a precision parameter gets. */
  static final int DEFAULT_PRECISION = 38;

  static DecimalLayout of(Schema schema) {
    Map<String, String> parameters = schema.parameters();
    int connectScale = connectScale(schema);
    String precisionText = parameters.get(ConnectTypes.DECIMAL_PRECISION);
    int precision = precisionText == null ? DEFAULT_PRECISION : parse(precisionText, "precision");
    if (precision <= 0) {
      throw new DataException("Decimal precision must be positive, got " + precision);
    }
    int scale = Math.max(connectScale, 0);
    if (connectScale < 0) {
      precision += -connectScale;
    }
    // Parquet needs scale <= precision; a schema asking for fewer digits than its scale can
    // only mean values below one, which the larger precision still bounds.
    precision = Math.max(precision, scale);
    if (precision <= 9) {
      return new DecimalLayout(connectScale, scale, precision, PhysicalType.INT32, 0);
    }
    if (precision <= 18) {
      return new DecimalLayout(connectScale, scale, precision, PhysicalType.INT64, 0);
    }
    int bytes = 1;
    while (LogicalTypes.maxDecimalPrecision(bytes) < precision) {
      bytes++;
    }
    return new DecimalLayout(
        connectScale, scale, precision, PhysicalType.FIXED_LEN_BYTE_ARRAY, bytes);
  }

  /**
   * The scale parameter of a Connect Decimal schema. A schema read back from a file's metadata is
   * untrusted: a missing or non-integer scale is a DataException, never the NullPointerException or
   * NumberFormatException that parsing it blindly throws.
   */
  static int connectScale(Schema schema) {
    Map<String, String> parameters = schema.parameters();
    String scaleText = parameters == null ? null : parameters.get(Decimal.SCALE_FIELD);
    if (scaleText == null) {
      throw new DataException("Decimal schema without a scale parameter");
    }
    return parse(scaleText, "scale");
  }

  private static int parse(String text, String what) {
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new DataException("Decimal " + what + " parameter is not an integer: " + text, e);
    }
  }

  /**
   * The value at the Parquet scale, checked against the precision; null with {@code problem} filled
   * when it does not fit. Rescaling happens only when exact (a value written with trailing zeros,
   * or a negative Connect scale), never by rounding.
   */
  BigDecimal fit(BigDecimal value, StringBuilder problem) {
    BigDecimal scaled = value;
    if (value.scale() != scale) {
      try {
        scaled = value.setScale(scale, RoundingMode.UNNECESSARY);
      } catch (ArithmeticException e) {
        problem
            .append("decimal ")
            .append(value.toPlainString())
            .append(" has scale ")
            .append(value.scale())
            .append(", the column ")
            .append(scale);
        return null;
      }
    }
    if (scaled.precision() > precision) {
      problem
          .append("decimal ")
          .append(value.toPlainString())
          .append(" has ")
          .append(scaled.precision())
          .append(" digits, the column holds ")
          .append(precision);
      return null;
    }
    return scaled;
  }

  /** The Connect value of a Parquet unscaled integer. */
  BigDecimal toConnect(BigInteger unscaled) {
    BigDecimal atParquetScale = new BigDecimal(unscaled, scale);
    return connectScale == scale
        ? atParquetScale
        : atParquetScale.setScale(connectScale, RoundingMode.UNNECESSARY);
  }
}
