package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.io.GrowableBuffer;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.UUID;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TSet;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;

/**
 * A compact protocol writer that plays a newer writer: before the end of every struct it adds a
 * field this codec does not know, of a rotating type (scalars, binaries, nested structs, lists,
 * sets, maps, UUIDs). Structs with exactly one field are left alone, since that is what a union
 * looks like and a union may have only one member.
 */
final class InjectingProtocol extends TCompactProtocol {
  private final Deque<int[]> fieldCounts = new ArrayDeque<>();
  private int injected;
  private boolean injecting;

  InjectingProtocol(GrowableBuffer out) {
    super(new BufferTransport(out));
  }

  int injected() {
    return injected;
  }

  @Override
  public void writeStructBegin(TStruct struct) throws TException {
    super.writeStructBegin(struct);
    if (!injecting) {
      fieldCounts.push(new int[1]);
    }
  }

  @Override
  public void writeFieldBegin(TField field) throws TException {
    super.writeFieldBegin(field);
    if (!injecting) {
      fieldCounts.peek()[0]++;
    }
  }

  @Override
  public void writeFieldStop() throws TException {
    if (!injecting && fieldCounts.peek()[0] != 1) {
      injecting = true;
      writeUnknownField(injected++ % 8);
      injecting = false;
    }
    super.writeFieldStop();
  }

  @Override
  public void writeStructEnd() throws TException {
    super.writeStructEnd();
    if (!injecting) {
      fieldCounts.pop();
    }
  }

  private void writeUnknownField(int kind) throws TException {
    short id = (short) (1000 + kind);
    switch (kind) {
      case 0 -> {
        writeFieldBegin(new TField("", TType.I32, id));
        writeI32(-12345);
      }
      case 1 -> {
        writeFieldBegin(new TField("", TType.I64, id));
        writeI64(Long.MIN_VALUE);
      }
      case 2 -> {
        writeFieldBegin(new TField("", TType.STRING, id));
        writeBinary(ByteBuffer.wrap(new byte[300]));
      }
      case 3 -> {
        writeFieldBegin(new TField("", TType.DOUBLE, id));
        writeDouble(Math.PI);
      }
      case 4 -> {
        writeFieldBegin(new TField("", TType.BOOL, id));
        writeBool(true);
      }
      case 5 -> {
        writeFieldBegin(new TField("", TType.STRUCT, id));
        writeNestedStruct(3);
      }
      case 6 -> {
        writeFieldBegin(new TField("", TType.LIST, id));
        writeListBegin(new TList(TType.BOOL, 20));
        for (int i = 0; i < 20; i++) {
          writeBool(i % 3 == 0);
        }
      }
      default -> {
        writeFieldBegin(new TField("", TType.MAP, id));
        writeMapBegin(new TMap(TType.STRING, TType.STRUCT, 0));
      }
    }
  }

  private void writeNestedStruct(int depth) throws TException {
    writeStructBegin(new TStruct(""));
    writeFieldBegin(new TField("", TType.BYTE, (short) 1));
    writeByte((byte) -7);
    writeFieldBegin(new TField("", TType.I16, (short) 2));
    writeI16((short) -300);
    writeFieldBegin(new TField("", TType.UUID, (short) 3));
    writeUuid(new UUID(1, 2));
    writeFieldBegin(new TField("", TType.SET, (short) 4));
    writeSetBegin(new TSet(TType.I64, 3));
    writeI64(1);
    writeI64(-1);
    writeI64(Long.MAX_VALUE);
    writeFieldBegin(new TField("", TType.MAP, (short) 5));
    writeMapBegin(new TMap(TType.STRING, TType.LIST, 2));
    for (int i = 0; i < 2; i++) {
      writeString("k" + i);
      writeListBegin(new TList(TType.I32, 2));
      writeI32(i);
      writeI32(-i);
    }
    if (depth > 0) {
      writeFieldBegin(new TField("", TType.LIST, (short) 300));
      writeListBegin(new TList(TType.STRUCT, 2));
      writeNestedStruct(depth - 1);
      writeNestedStruct(depth - 1);
    }
    writeFieldStop();
    writeStructEnd();
  }
}
