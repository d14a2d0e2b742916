package dev.parquetconnect.connect;

import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Which Connect logical type a schema is. A logical name on the wrong physical type (a "Date" on a
 * STRING) is no logical type: it is treated as its physical type, as Connect's own converters would
 * fail on it anyway.
 */
final class ConnectTypes {
  /** The schema parameter Confluent's Avro converter keeps a decimal's precision in. */
  static final String DECIMAL_PRECISION = "connect.decimal.precision";

  /**
   * The schema parameter whose value names the Avro enum a Connect STRING came from: Confluent's
   * AvroConverter (and Apicurio's, which shares its AvroData) sets it, with one more parameter per
   * symbol ({@code io.confluent.connect.avro.Enum.SYMBOL}).
   */
  static final String AVRO_ENUM = "io.confluent.connect.avro.Enum";

  /**
   * The same under {@code generalized.sum.type.support=true} (Confluent's Avro and Protobuf
   * converters): the symbols' parameters then hold their indexes.
   */
  static final String GENERALIZED_ENUM = "org.apache.kafka.connect.data.Enum";

  /**
   * The same from Confluent's ProtobufConverter (symbols' parameters hold their tags); with {@code
   * int.for.enums} it makes an INT32, which stays an integer column.
   */
  static final String PROTOBUF_ENUM = "io.confluent.connect.protobuf.Enum";

  /** Connect's types with the logical ones told apart: what a column is built from. */
  enum Kind {
    INT8,
    INT16,
    INT32,
    INT64,
    FLOAT32,
    FLOAT64,
    BOOLEAN,
    STRING,
    BYTES,
    DECIMAL,
    DATE,
    TIME,
    TIMESTAMP,
    ARRAY,
    MAP,
    STRUCT
  }

  private ConnectTypes() {}

  /**
   * Whether {@code schema} is a STRING holding the symbols of an Avro or Protobuf enum: its column
   * is annotated ENUM, which engines read as text and Avro readers of Parquet (parquet-java's
   * AvroParquetReader) as an enum.
   */
  static boolean isEnum(Schema schema) {
    Map<String, String> parameters = schema.parameters();
    return schema.type() == Schema.Type.STRING
        && parameters != null
        && (parameters.containsKey(AVRO_ENUM)
            || parameters.containsKey(GENERALIZED_ENUM)
            || parameters.containsKey(PROTOBUF_ENUM));
  }

  static Kind kind(Schema schema) {
    String name = schema.name();
    Schema.Type type = schema.type();
    if (name != null) {
      if (name.equals(Decimal.LOGICAL_NAME) && type == Schema.Type.BYTES) {
        return Kind.DECIMAL;
      }
      if (name.equals(Date.LOGICAL_NAME) && type == Schema.Type.INT32) {
        return Kind.DATE;
      }
      if (name.equals(Time.LOGICAL_NAME) && type == Schema.Type.INT32) {
        return Kind.TIME;
      }
      if (name.equals(Timestamp.LOGICAL_NAME) && type == Schema.Type.INT64) {
        return Kind.TIMESTAMP;
      }
    }
    return switch (type) {
      case INT8 -> Kind.INT8;
      case INT16 -> Kind.INT16;
      case INT32 -> Kind.INT32;
      case INT64 -> Kind.INT64;
      case FLOAT32 -> Kind.FLOAT32;
      case FLOAT64 -> Kind.FLOAT64;
      case BOOLEAN -> Kind.BOOLEAN;
      case STRING -> Kind.STRING;
      case BYTES -> Kind.BYTES;
      case ARRAY -> Kind.ARRAY;
      case MAP -> Kind.MAP;
      case STRUCT -> Kind.STRUCT;
    };
  }

  /** Whether a MAP with these keys can be a Parquet MAP (keys must be primitive there). */
  static boolean isPrimitiveKey(Schema keySchema) {
    Kind k = kind(keySchema);
    return k != Kind.ARRAY && k != Kind.MAP && k != Kind.STRUCT;
  }

  /** The schema as error messages show it: {@code optional struct com.example.Order}. */
  static String describe(Schema schema) {
    if (schema == null) {
      return "no schema";
    }
    StringBuilder out = new StringBuilder();
    if (schema.isOptional()) {
      out.append("optional ");
    }
    Kind kind = kind(schema);
    out.append(kind.name().toLowerCase(java.util.Locale.ROOT));
    if (kind == Kind.DECIMAL) {
      out.append('(').append(schema.parameters().get(Decimal.SCALE_FIELD)).append(')');
    } else if (kind == Kind.STRUCT && schema.name() != null) {
      out.append(' ').append(schema.name());
    }
    return out.toString();
  }
}
