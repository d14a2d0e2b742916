package dev.parquetconnect.connect;

import dev.parquetconnect.format.write.ColumnChunkWriter;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.Header;

/**
 * The headers of the record {@link ConnectRecordShredder} is shredding, encoded during the check
 * pass (where a header value that does not match its schema is found) and written from here in the
 * write pass.
 */
final class StagedHeaders {
  private int count;
  private String[] keys = new String[8];
  private byte[][] schemas = new byte[8][];
  private int[] valueStart = new int[8];

  /** -1 for a null value. */
  private int[] valueLength = new int[8];

  private byte[] values = new byte[256];
  private int used;

  void clear() {
    count = 0;
    used = 0;
  }

  void add(Header h, byte[] schemaJson, Utf8Scratch utf8) {
    if (count == keys.length) {
      int n = count * 2;
      keys = Arrays.copyOf(keys, n);
      schemas = Arrays.copyOf(schemas, n);
      valueStart = Arrays.copyOf(valueStart, n);
      valueLength = Arrays.copyOf(valueLength, n);
    }
    if (h.key() == null) {
      throw new IllegalArgumentException("a header without a key");
    }
    keys[count] = h.key();
    schemas[count] = schemaJson;
    Object value = h.value();
    Schema schema = h.schema();
    valueStart[count] = used;
    if (value == null) {
      valueLength[count] = -1;
    } else {
      ConnectTypes.Kind kind = schema == null ? null : ConnectTypes.kind(schema);
      if (kind == ConnectTypes.Kind.STRING && value instanceof String s) {
        int n = utf8.encode(s);
        append(utf8.buffer(), 0, n);
      } else if (kind == ConnectTypes.Kind.BYTES && value instanceof byte[] b) {
        append(b, 0, b.length);
      } else if (kind == ConnectTypes.Kind.BYTES && value instanceof ByteBuffer buffer) {
        byte[] b = ConnectValueJson.bytes(buffer, schema);
        append(b, 0, b.length);
      } else {
        String json = Json.write(ConnectValueJson.toJson(schema, value));
        int n = utf8.encode(json);
        append(utf8.buffer(), 0, n);
      }
      valueLength[count] = used - valueStart[count];
    }
    count++;
  }

  private void append(byte[] b, int off, int len) {
    if (values.length - used < len) {
      values = Arrays.copyOf(values, Math.max(values.length * 2, used + len));
    }
    System.arraycopy(b, off, values, used, len);
    used += len;
  }

  /** Levels: the list is REQUIRED (0), an entry 1, key REQUIRED (1), schema/value 2. */
  void writeTo(
      ColumnChunkWriter key, ColumnChunkWriter schema, ColumnChunkWriter value, Utf8Scratch utf8) {
    if (count == 0) {
      key.writeNull(0, 0);
      schema.writeNull(0, 0);
      value.writeNull(0, 0);
      return;
    }
    for (int i = 0; i < count; i++) {
      int rep = i == 0 ? 0 : 1;
      int n = utf8.encode(keys[i]);
      key.writeBinary(utf8.buffer(), 0, n, rep, 1);
      if (schemas[i] == null) {
        schema.writeNull(rep, 1);
      } else {
        schema.writeBinary(schemas[i], 0, schemas[i].length, rep, 2);
      }
      if (valueLength[i] < 0) {
        value.writeNull(rep, 1);
      } else {
        value.writeBinary(values, valueStart[i], valueLength[i], rep, 2);
      }
      keys[i] = null;
    }
  }
}
