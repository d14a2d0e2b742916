package dev.parquetconnect.cli;

import dev.parquetconnect.format.meta.ConvertedType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.LogicalTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Renders a column's physical values as JSON according to its logical type: text as strings, JSON
 * embedded, decimals as exact numbers, dates and times in ISO form, UUIDs canonical, unsigned
 * integers unsigned, half floats as numbers, other byte strings as base64, and NaN and the
 * infinities as strings. An annotation that does not fit its physical type is ignored, as readers
 * must, and so is one this reader does not know: the physical value is shown.
 */
final class LeafRenderers {
  private LeafRenderers() {}

  static JsonRenderer forLeaf(PrimitiveNode leaf) {
    LogicalType logical = leaf.logicalType();
    if (logical != null && LogicalTypes.isApplicable(logical, leaf.type(), leaf.typeLength())) {
      JsonRenderer annotated = forLogicalType(logical, leaf.type());
      if (annotated != null) {
        return annotated;
      }
    }
    if (leaf.convertedType() == ConvertedType.INTERVAL
        && leaf.type() == PhysicalType.FIXED_LEN_BYTE_ARRAY
        && leaf.typeLength() == 12) {
      return orPhysical(v -> LogicalValues.interval((byte[]) v), false);
    }
    return physical(leaf.type());
  }

  /** The renderer of an annotation, or null to show the physical value. */
  private static JsonRenderer forLogicalType(LogicalType logical, PhysicalType physical) {
    if (logical instanceof LogicalType.StringType || logical instanceof LogicalType.EnumType) {
      return (v, out) -> Json.appendString(out, utf8(v));
    }
    if (logical instanceof LogicalType.JsonType) {
      return LeafRenderers::renderJsonText;
    }
    if (logical instanceof LogicalType.DecimalType d) {
      int scale = d.scale();
      return switch (physical) {
        case INT32 ->
            (v, out) -> out.append(LogicalValues.decimal((Integer) v, scale).toPlainString());
        case INT64 ->
            (v, out) -> out.append(LogicalValues.decimal((Long) v, scale).toPlainString());
        default -> (v, out) -> out.append(LogicalValues.decimal((byte[]) v, scale).toPlainString());
      };
    }
    if (logical instanceof LogicalType.DateType) {
      return (v, out) -> out.append('"').append(LogicalValues.date((Integer) v)).append('"');
    }
    if (logical instanceof LogicalType.TimeType t) {
      return orPhysical(
          v -> {
            long units = v instanceof Integer i ? i : (Long) v;
            String time = LogicalValues.time(units, t.unit(), t.adjustedToUtc());
            return time == null ? null : Json.quote(time);
          },
          true);
    }
    if (logical instanceof LogicalType.TimestampType t) {
      return (v, out) ->
          Json.appendString(out, LogicalValues.timestamp((Long) v, t.unit(), t.adjustedToUtc()));
    }
    if (logical instanceof LogicalType.IntType i && !i.signed()) {
      return switch (i.bitWidth()) {
        case 8 -> (v, out) -> out.append((Integer) v & 0xFF);
        case 16 -> (v, out) -> out.append((Integer) v & 0xFFFF);
        case 32 -> (v, out) -> out.append(Integer.toUnsignedString((Integer) v));
        default -> (v, out) -> out.append(Long.toUnsignedString((Long) v));
      };
    }
    if (logical instanceof LogicalType.UuidType) {
      return (v, out) -> Json.appendString(out, LogicalValues.uuid((byte[]) v));
    }
    if (logical instanceof LogicalType.Float16Type) {
      return (v, out) -> Json.appendFloat(out, LogicalValues.float16((byte[]) v));
    }
    // Signed INTEGER, BSON, UNKNOWN (only nulls, which never get here) and the annotations
    // without a textual meaning (VARIANT, GEOMETRY...) show their physical values.
    return null;
  }

  /** The physical value in JSON: numbers, booleans, INT96 as a timestamp, bytes as base64. */
  static JsonRenderer physical(PhysicalType type) {
    return switch (type) {
      case BOOLEAN, INT32, INT64 -> (v, out) -> out.append(v);
      case FLOAT -> (v, out) -> Json.appendFloat(out, (Float) v);
      case DOUBLE -> (v, out) -> Json.appendDouble(out, (Double) v);
      case INT96 ->
          orPhysical(
              v -> {
                String time = LogicalValues.int96((byte[]) v);
                return time == null ? null : Json.quote(time);
              },
              false);
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> LeafRenderers::renderBase64;
    };
  }

  /**
   * A renderer that shows {@code render}'s text, or the physical value where it returns null (a
   * time past midnight, an INT96 of the wrong length): never an exception, never a lie.
   */
  private static JsonRenderer orPhysical(
      java.util.function.Function<Object, String> render, boolean numeric) {
    return (v, out) -> {
      String text = render.apply(v);
      if (text != null) {
        out.append(text);
      } else if (numeric) {
        out.append(v);
      } else {
        renderBase64(v, out);
      }
    };
  }

  private static void renderBase64(Object v, StringBuilder out) {
    out.append('"').append(Base64.getEncoder().encodeToString((byte[]) v)).append('"');
  }

  /** JSON text embedded as JSON when it is valid, else shown as a string. */
  private static void renderJsonText(Object v, StringBuilder out) {
    String text = utf8(v);
    if (JsonSyntax.isValid(text)) {
      out.append(JsonSyntax.onOneLine(text.strip()));
    } else {
      Json.appendString(out, text);
    }
  }

  /** UTF-8 bytes as text; malformed sequences become U+FFFD, as in every UTF-8 reader. */
  private static String utf8(Object v) {
    return new String((byte[]) v, StandardCharsets.UTF_8);
  }
}
