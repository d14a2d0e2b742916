package dev.parquetconnect.connect;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Rewrites a value of one schema version as a value of another that {@link SchemaEvolution} decided
 * it projects to, where the two differ in parameters Connect's {@code SchemaProjector} insists on
 * (docs, versions, enum symbols added: {@link SchemaParameters}). The rules are Avro's schema
 * resolution as Connect states them: a struct takes the target's fields, each from the source field
 * of that name or, where the source has none, the target field's default (null when it is optional
 * without one); fields only the source has are dropped; a null goes to an optional target as null
 * and to a required target with a default as that default; numbers widen to the target's type;
 * everything else is kept as it is.
 */
final class ValueProjection {
  private ValueProjection() {}

  /**
   * {@code value} (of {@code source}) as a value of {@code target}.
   *
   * @throws DataException when a value cannot be one of {@code target} (a null without a default
   *     for a required field, a number that does not widen): {@code where} names the field
   */
  static Object project(Schema source, Object value, Schema target, String where) {
    if (value == null) {
      if (target.isOptional()) {
        return null;
      }
      if (target.defaultValue() != null) {
        return target.defaultValue();
      }
      throw new DataException(where + " is null but the file's schema requires a value");
    }
    switch (target.type()) {
      case STRUCT:
        return projectStruct(source, (Struct) value, target, where);
      case ARRAY:
        {
          List<?> in = (List<?>) value;
          List<Object> out = new ArrayList<>(in.size());
          for (Object element : in) {
            out.add(project(source.valueSchema(), element, target.valueSchema(), where + "[]"));
          }
          return out;
        }
      case MAP:
        {
          Map<?, ?> in = (Map<?, ?>) value;
          Map<Object, Object> out = new LinkedHashMap<>(in.size() * 2);
          for (Map.Entry<?, ?> e : in.entrySet()) {
            out.put(
                project(source.keySchema(), e.getKey(), target.keySchema(), where + " key"),
                project(
                    source.valueSchema(), e.getValue(), target.valueSchema(), where + " value"));
          }
          return out;
        }
      default:
        return source.type() == target.type() ? value : widen((Number) value, target, where);
    }
  }

  private static Struct projectStruct(Schema source, Struct value, Schema target, String where) {
    Struct out = new Struct(target);
    for (Field t : target.fields()) {
      Field s = source.field(t.name());
      String path = where + "." + t.name();
      Object projected;
      if (s == null) {
        projected = t.schema().defaultValue();
        if (projected == null && !t.schema().isOptional()) {
          throw new DataException(path + " is missing and has no default in the file's schema");
        }
      } else {
        projected = project(s.schema(), value.get(s), t.schema(), path);
      }
      out.put(t, projected);
    }
    return out;
  }

  private static Object widen(Number value, Schema target, String where) {
    return switch (target.type()) {
      case INT16 -> value.shortValue();
      case INT32 -> value.intValue();
      case INT64 -> value.longValue();
      case FLOAT32 -> value.floatValue();
      case FLOAT64 -> value.doubleValue();
      default ->
          throw new DataException(
              where + ": a " + value.getClass().getSimpleName() + " is no " + target.type());
    };
  }
}
