package dev.parquetconnect.connect;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fills the Structs {@link ConnectRecordReader} builds. Connect's only setters, {@code
 * Struct.put(String, Object)} and {@code put(Field, Object)}, validate every value against the
 * field's schema ({@code ConnectSchema.validateValue}: a class lookup by schema name or type,
 * {@code isInstance} checks, and for arrays and maps a walk over every element), which cost the
 * source a fifth of its time. The reader's values are valid by construction: each is built by the
 * leaf or group reader compiled for exactly that field's schema, as the Java class that schema
 * requires, and nulls are never stored. So they go straight into the Struct's value array, read
 * through a {@link VarHandle} on its private {@code values} field (the same field in every Connect
 * version from 0.10 to 4.x). Where that field cannot be reached (a different Connect
 * implementation, a runtime that forbids deep reflection), values go through {@code put}, which is
 * slower but equal, and says so once in the log. Tests check that every Struct the reader builds
 * passes {@code Struct.validate()} and equals the one the validating path builds, and {@code
 * StructValuesIT} that the direct path is taken on Connect 3.6 (the compile API), 3.9 and 4.3. Its
 * worth: docs/performance.md. The sink's {@code input.format=json} fills the Structs of envelope
 * payloads the same way ({@code connect/json/SchemaDirectedReader}), for the same reason.
 */
public final class StructValues {
  private static final Logger LOG = LoggerFactory.getLogger(StructValues.class);

  /** {@code Struct.values}, or null when it cannot be reached. */
  private static final VarHandle VALUES = valuesHandle();

  private StructValues() {}

  private static VarHandle valuesHandle() {
    try {
      VarHandle handle =
          MethodHandles.privateLookupIn(Struct.class, MethodHandles.lookup())
              .findVarHandle(Struct.class, "values", Object[].class);
      // Check the layout once: a one-field struct's array must hold what put stores.
      org.apache.kafka.connect.data.Schema probe =
          org.apache.kafka.connect.data.SchemaBuilder.struct()
              .field("f", org.apache.kafka.connect.data.Schema.INT32_SCHEMA)
              .build();
      Struct struct = new Struct(probe).put("f", 7);
      Object[] values = (Object[]) handle.get(struct);
      if (values.length == 1 && Integer.valueOf(7).equals(values[0])) {
        return handle;
      }
      LOG.warn(
          "Connect's Struct keeps its values differently: the source fills Structs through "
              + "Struct.put, which validates every value again (slower, same records)");
      return null;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      LOG.warn(
          "Connect's Struct.values cannot be reached ({}): the source fills Structs through "
              + "Struct.put, which validates every value again (slower, same records)",
          e.toString());
      return null;
    }
  }

  /** Whether values are stored without Connect's per-put validation. */
  static boolean direct() {
    return VALUES != null;
  }

  /** Stores {@code value}, a non-null value valid for {@code field}'s schema by construction. */
  public static void put(Struct struct, Field field, Object value) {
    if (VALUES != null) {
      ((Object[]) VALUES.get(struct))[field.index()] = value;
    } else {
      struct.put(field, value);
    }
  }
}
