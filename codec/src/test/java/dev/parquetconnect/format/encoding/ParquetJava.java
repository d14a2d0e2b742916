package dev.parquetconnect.format.encoding;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.ValuesWriter;

/** Glue for using parquet-java's value writers and readers as test oracles. */
final class ParquetJava {
  static final ByteBufferAllocator HEAP = new HeapByteBufferAllocator();
  static final int PAGE = 1 << 20;

  private ParquetJava() {}

  static byte[] bytes(ValuesWriter writer) throws IOException {
    return bytes(writer.getBytes());
  }

  static byte[] bytes(BytesInput input) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    input.writeAllTo(out);
    return out.toByteArray();
  }

  static ByteBufferInputStream stream(byte[] bytes) {
    return ByteBufferInputStream.wrap(ByteBuffer.wrap(bytes));
  }
}
