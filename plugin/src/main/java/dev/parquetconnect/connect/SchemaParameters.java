package dev.parquetconnect.connect;

import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;

/**
 * Which of a Connect schema's parameters are data, for the sink's projection of one schema version
 * to another ({@link SchemaEvolution}). Converters put documentation into parameters: Confluent's
 * and Apicurio's {@code AvroData} the record's, each field's and each enum's doc, an enum's
 * default, a flag on fields that have a default; a registry edit of any of them makes a new schema
 * version whose records are the same data. Connect's own {@code SchemaProjector} refuses every
 * difference in parameters, which split files at each doc edit.
 *
 * <p>Two parameters change what a value means or how its column is typed, and only these are
 * compared:
 *
 * <ul>
 *   <li>a Decimal's {@code scale} and {@code connect.decimal.precision}: they are the column's
 *       Parquet DECIMAL(precision, scale) and its physical type, so they must be equal;
 *   <li>an enum's symbols (the parameters {@code io.confluent.connect.avro.Enum.SYMBOL}, {@code
 *       org.apache.kafka.connect.data.Enum.SYMBOL}, {@code
 *       io.confluent.connect.protobuf.Enum.SYMBOL} that {@link ConnectTypes#isEnum} recognises): a
 *       value of the source version must be a value of the target version, so the source's symbols
 *       must be among the target's. An enum and a plain string are not projected to each other
 *       (ENUM and STRING columns differ).
 * </ul>
 *
 * Schema names stay compared where {@link SchemaEvolution} compares them: a name is a Connect
 * logical type (Decimal, Date, Time, Timestamp), and Avro's schema resolution matches records and
 * enums by name. The symbols' values (an index or a Protobuf tag) are not compared: the column
 * holds the symbol's text.
 */
final class SchemaParameters {
  private SchemaParameters() {}

  /** Whether values of {@code source} are values of {@code target} as far as parameters go. */
  static boolean allowProjection(Schema source, Schema target) {
    Map<String, String> from = source.parameters();
    Map<String, String> to = target.parameters();
    if (Objects.equals(from, to)) {
      return true;
    }
    if (Decimal.LOGICAL_NAME.equals(target.name())) {
      return Objects.equals(get(from, Decimal.SCALE_FIELD), get(to, Decimal.SCALE_FIELD))
          && Objects.equals(
              get(from, ConnectTypes.DECIMAL_PRECISION), get(to, ConnectTypes.DECIMAL_PRECISION));
    }
    boolean sourceEnum = ConnectTypes.isEnum(source);
    if (sourceEnum != ConnectTypes.isEnum(target)) {
      return false;
    }
    return !sourceEnum || symbols(target).containsAll(symbols(source));
  }

  /**
   * An enum schema's symbols: the suffixes of its marker parameter's {@code MARKER.SYMBOL} keys.
   */
  static Set<String> symbols(Schema enumSchema) {
    Set<String> out = new HashSet<>();
    Map<String, String> parameters = enumSchema.parameters();
    for (String marker :
        new String[] {
          ConnectTypes.AVRO_ENUM, ConnectTypes.GENERALIZED_ENUM, ConnectTypes.PROTOBUF_ENUM
        }) {
      if (parameters.containsKey(marker)) {
        String prefix = marker + ".";
        for (String key : parameters.keySet()) {
          if (key.startsWith(prefix)) {
            out.add(key.substring(prefix.length()));
          }
        }
      }
    }
    return out;
  }

  private static String get(Map<String, String> parameters, String key) {
    return parameters == null ? null : parameters.get(key);
  }
}
