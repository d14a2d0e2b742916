package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.io.GrowableBuffer;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;

/**
 * The hand-written struct writers' view of {@code TCompactProtocol}. Writers emit fields in
 * field-id order and only the optional fields that are set (the {@code opt*} methods skip nulls),
 * which is exactly what Thrift's generated code does, so the bytes match other implementations'.
 */
final class ThriftOutput {
  private static final TStruct ANONYMOUS = new TStruct("");
  private static final int CACHED_IDS = 32;

  /** Field headers by type and id: the protocol wants a TField object per field written. */
  private static final TField[][] FIELDS = new TField[TType.UUID + 1][CACHED_IDS];

  static {
    for (byte type = 0; type < FIELDS.length; type++) {
      for (short id = 0; id < CACHED_IDS; id++) {
        FIELDS[type][id] = new TField("", type, id);
      }
    }
  }

  private final TCompactProtocol protocol;

  ThriftOutput(GrowableBuffer out) {
    this(new TCompactProtocol(new BufferTransport(out)));
  }

  /** Over a given protocol; tests pass one that adds fields a newer writer might send. */
  ThriftOutput(TCompactProtocol protocol) {
    this.protocol = protocol;
  }

  void structBegin() throws TException {
    protocol.writeStructBegin(ANONYMOUS);
  }

  void structEnd() throws TException {
    protocol.writeFieldStop();
    protocol.writeStructEnd();
  }

  void fieldBegin(byte type, int id) throws TException {
    protocol.writeFieldBegin(id < CACHED_IDS ? FIELDS[type][id] : new TField("", type, (short) id));
  }

  /** A field holding an empty struct, such as the members of most unions here. */
  void emptyStruct(int id) throws TException {
    fieldBegin(TType.STRUCT, id);
    structBegin();
    structEnd();
  }

  /** A union whose member {@code memberId} is an empty struct. */
  void emptyStructUnion(int memberId) throws TException {
    structBegin();
    emptyStruct(memberId);
    structEnd();
  }

  // ---- fields

  void bool(int id, boolean v) throws TException {
    fieldBegin(TType.BOOL, id);
    protocol.writeBool(v);
  }

  void i8(int id, byte v) throws TException {
    fieldBegin(TType.BYTE, id);
    protocol.writeByte(v);
  }

  void i32(int id, int v) throws TException {
    fieldBegin(TType.I32, id);
    protocol.writeI32(v);
  }

  void i64(int id, long v) throws TException {
    fieldBegin(TType.I64, id);
    protocol.writeI64(v);
  }

  void dbl(int id, double v) throws TException {
    fieldBegin(TType.DOUBLE, id);
    protocol.writeDouble(v);
  }

  void string(int id, String v) throws TException {
    fieldBegin(TType.STRING, id);
    protocol.writeString(v);
  }

  void binary(int id, ByteString v) throws TException {
    fieldBegin(TType.STRING, id);
    writeBinary(v);
  }

  void optBool(int id, Boolean v) throws TException {
    if (v != null) {
      bool(id, v);
    }
  }

  void optI8(int id, Byte v) throws TException {
    if (v != null) {
      i8(id, v);
    }
  }

  void optI16(int id, Short v) throws TException {
    if (v != null) {
      fieldBegin(TType.I16, id);
      protocol.writeI16(v);
    }
  }

  void optI32(int id, Integer v) throws TException {
    if (v != null) {
      i32(id, v);
    }
  }

  void optI64(int id, Long v) throws TException {
    if (v != null) {
      i64(id, v);
    }
  }

  void optDbl(int id, Double v) throws TException {
    if (v != null) {
      dbl(id, v);
    }
  }

  void optString(int id, String v) throws TException {
    if (v != null) {
      string(id, v);
    }
  }

  void optBinary(int id, ByteString v) throws TException {
    if (v != null) {
      binary(id, v);
    }
  }

  // ---- lists

  void listBegin(int id, byte elemType, int size) throws TException {
    fieldBegin(TType.LIST, id);
    protocol.writeListBegin(new TList(elemType, size));
  }

  void optI64List(int id, List<Long> v) throws TException {
    if (v != null) {
      listBegin(id, TType.I64, v.size());
      for (long x : v) {
        protocol.writeI64(x);
      }
    }
  }

  void optI32List(int id, List<Integer> v) throws TException {
    if (v != null) {
      listBegin(id, TType.I32, v.size());
      for (int x : v) {
        protocol.writeI32(x);
      }
    }
  }

  void boolList(int id, List<Boolean> v) throws TException {
    listBegin(id, TType.BOOL, v.size());
    for (boolean x : v) {
      protocol.writeBool(x);
    }
  }

  void stringList(int id, List<String> v) throws TException {
    listBegin(id, TType.STRING, v.size());
    for (String x : v) {
      protocol.writeString(x);
    }
  }

  void binaryList(int id, List<ByteString> v) throws TException {
    listBegin(id, TType.STRING, v.size());
    for (ByteString x : v) {
      writeBinary(x);
    }
  }

  // ---- bare values, for list elements

  void writeI32(int v) throws TException {
    protocol.writeI32(v);
  }

  void writeBinary(ByteString v) throws TException {
    protocol.writeBinary(ByteBuffer.wrap(v.internalArray()));
  }
}
