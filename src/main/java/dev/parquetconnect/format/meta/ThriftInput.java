package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TType;

/**
 * The hand-written struct readers' view of {@code TCompactProtocol}: field headers packed into an
 * int, skipping of unknown fields with a nesting bound, list headers checked against the input,
 * and errors that name the structure and the byte position. Struct readers call
 * {@link #structBegin()}, loop on {@link #fieldBegin()} until {@link #STOP}, dispatch on
 * {@link #id(int)} and use {@link #accept(int, byte)} to skip a known id sent with another type,
 * as Thrift's generated code does.
 */
final class ThriftInput {
  /** What {@link #fieldBegin()} returns at the end of a struct. */
  static final int STOP = -1;
  /** Deepest nesting of structs and containers accepted; Parquet's own structs use about 8. */
  static final int MAX_DEPTH = 64;

  private final TCompactProtocol protocol;
  private final ReadTransport transport;
  private final String what;
  private int depth;

  /**
   * @param what the structure being read, for error messages ("footer", "page header", ...)
   */
  ThriftInput(ReadTransport transport, String what) {
    this.transport = transport;
    this.what = what;
    long limit = transport.remaining();
    // String and container lengths can never exceed the input: each element takes a byte or more.
    this.protocol = new TCompactProtocol(transport, limit, limit);
  }

  int position() {
    return transport.position();
  }

  // ---- structs and fields

  void structBegin() throws TException, CorruptDataException {
    if (++depth > MAX_DEPTH) {
      throw corrupt("structures nested deeper than " + MAX_DEPTH + " levels");
    }
    protocol.readStructBegin();
  }

  void structEnd() throws TException {
    depth--;
    protocol.readStructEnd();
  }

  /** The next field header as {@code type << 16 | id}, or {@link #STOP}. */
  int fieldBegin() throws TException {
    TField f = protocol.readFieldBegin();
    return f.type == TType.STOP ? STOP : (f.type << 16) | (f.id & 0xFFFF);
  }

  static int id(int field) {
    return (short) field;
  }

  static byte type(int field) {
    return (byte) (field >>> 16);
  }

  /**
   * Whether a known field came with its declared wire type. If not, the field is skipped like an
   * unknown one (which is what Thrift's generated readers do) and this returns false.
   */
  boolean accept(int field, byte expectedType) throws TException, CorruptDataException {
    if (type(field) == expectedType) {
      return true;
    }
    skip(type(field));
    return false;
  }

  /** Throws naming the first required field whose bit (by field id) is not in {@code seen}. */
  void require(int seen, int required, String struct, String[] fieldNames)
      throws CorruptDataException {
    int missing = required & ~seen;
    if (missing != 0) {
      int id = Integer.numberOfTrailingZeros(missing);
      throw corrupt("required field " + struct + "." + fieldNames[id] + " (id " + id + ") is missing");
    }
  }

  // ---- values

  boolean bool() throws TException {
    return protocol.readBool();
  }

  byte i8() throws TException {
    return protocol.readByte();
  }

  short i16() throws TException {
    return protocol.readI16();
  }

  int i32() throws TException {
    return protocol.readI32();
  }

  long i64() throws TException {
    return protocol.readI64();
  }

  double dbl() throws TException {
    return protocol.readDouble();
  }

  String string() throws TException {
    return protocol.readString();
  }

  ByteString binary() throws TException {
    ByteBuffer b = protocol.readBinary();
    return ByteString.copyOf(b.array(), b.arrayOffset() + b.position(), b.remaining());
  }

  // ---- lists

  /**
   * Reads a list header and returns its size. A list whose elements are not of the declared type
   * is skipped and -1 returned, so the caller treats the field as absent. Empty lists are accepted
   * with any element type, as some writers put a placeholder type there.
   */
  int listBegin(byte elemType) throws TException, CorruptDataException {
    TList list = protocol.readListBegin();
    checkCount(list.size);
    if (list.size > 0 && list.elemType != elemType
        && !(isVarint(list.elemType) && isVarint(elemType))) {
      skipElements(list.elemType, list.size);
      return -1;
    }
    return list.size;
  }

  /**
   * i16, i32 and i64 are all zigzag varints in the compact protocol, so a list declared with one
   * reads as another. Some writers declare encodings lists as i16, and Thrift's generated readers
   * (parquet-java's) ignore the declared element type altogether.
   */
  private static boolean isVarint(byte type) {
    return type == TType.I16 || type == TType.I32 || type == TType.I64;
  }

  List<Long> i64List() throws TException, CorruptDataException {
    int n = listBegin(TType.I64);
    if (n < 0) {
      return null;
    }
    List<Long> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      list.add(protocol.readI64());
    }
    return list;
  }

  List<Integer> i32List() throws TException, CorruptDataException {
    int n = listBegin(TType.I32);
    if (n < 0) {
      return null;
    }
    List<Integer> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      list.add(protocol.readI32());
    }
    return list;
  }

  List<Boolean> boolList() throws TException, CorruptDataException {
    int n = listBegin(TType.BOOL);
    if (n < 0) {
      return null;
    }
    List<Boolean> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      list.add(protocol.readBool());
    }
    return list;
  }

  List<String> stringList() throws TException, CorruptDataException {
    int n = listBegin(TType.STRING);
    if (n < 0) {
      return null;
    }
    List<String> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      list.add(protocol.readString());
    }
    return list;
  }

  List<ByteString> binaryList() throws TException, CorruptDataException {
    int n = listBegin(TType.STRING);
    if (n < 0) {
      return null;
    }
    List<ByteString> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      list.add(binary());
    }
    return list;
  }

  /** Reads one struct; implemented by the codecs' {@code readXxx} methods. */
  @FunctionalInterface
  interface StructReader<T> {
    T read(ThriftInput in) throws TException, ParquetException;
  }

  /** A list of structs, or null when the list was skipped for having another element type. */
  <T> List<T> structList(StructReader<T> reader) throws TException, ParquetException {
    int n = listBegin(TType.STRUCT);
    if (n < 0) {
      return null;
    }
    List<T> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      list.add(reader.read(this));
    }
    return list;
  }

  // ---- unions

  /**
   * Reads a union whose members are (or, for this codec, may be treated as) empty structs and
   * returns the field id of the member set; 0 when that member was not sent as a struct, which
   * no known member matches. Exactly one member must be set.
   */
  int emptyStructUnion(String union) throws TException, CorruptDataException {
    structBegin();
    int member = 0;
    int members = 0;
    for (int f; (f = fieldBegin()) != STOP; ) {
      members++;
      member = type(f) == TType.STRUCT ? id(f) : 0;
      skip(type(f));
    }
    structEnd();
    checkOneMember(union, members);
    return member;
  }

  void checkOneMember(String union, int members) throws CorruptDataException {
    if (members != 1) {
      throw corrupt("union " + union + " has " + members + " members set, expected exactly 1");
    }
  }

  // ---- skipping

  /** Skips a value of any type, as a reader of an older format version must. */
  void skip(byte type) throws TException, CorruptDataException {
    switch (type) {
      case TType.BOOL -> protocol.readBool();
      case TType.BYTE -> protocol.readByte();
      case TType.I16 -> protocol.readI16();
      case TType.I32 -> protocol.readI32();
      case TType.I64 -> protocol.readI64();
      case TType.DOUBLE -> protocol.readDouble();
      case TType.UUID -> protocol.readUuid();
      case TType.STRING -> protocol.readBinary();
      case TType.STRUCT -> {
        structBegin();
        for (int f; (f = fieldBegin()) != STOP; ) {
          skip(type(f));
        }
        structEnd();
      }
      case TType.LIST, TType.SET -> {
        TList list = protocol.readListBegin();
        checkCount(list.size);
        skipElements(list.elemType, list.size);
      }
      case TType.MAP -> {
        TMap map = protocol.readMapBegin();
        checkCount(map.size);
        enterContainer();
        for (int i = 0; i < map.size; i++) {
          skip(map.keyType);
          skip(map.valueType);
        }
        depth--;
      }
      default -> throw corrupt("invalid Thrift type " + type);
    }
  }

  private void skipElements(byte elemType, int size) throws TException, CorruptDataException {
    enterContainer();
    for (int i = 0; i < size; i++) {
      skip(elemType);
    }
    depth--;
  }

  private void enterContainer() throws CorruptDataException {
    if (++depth > MAX_DEPTH) {
      throw corrupt("structures nested deeper than " + MAX_DEPTH + " levels");
    }
  }

  /** Every element takes at least one byte, so a count beyond the bytes left is a lie. */
  private void checkCount(int size) throws CorruptDataException {
    if (size < 0 || size > transport.remaining()) {
      throw corrupt("a container of " + size + " elements cannot fit the " + transport.remaining()
          + " bytes left");
    }
  }

  // ---- enums and errors

  PhysicalType physicalType(int value, String field) throws CorruptDataException {
    PhysicalType t = PhysicalType.fromValueOrNull(value);
    if (t == null) {
      throw corrupt("unknown physical type " + value + " in " + field);
    }
    return t;
  }

  FieldRepetitionType repetition(int value, String field) throws CorruptDataException {
    FieldRepetitionType r = FieldRepetitionType.fromValueOrNull(value);
    if (r == null) {
      throw corrupt("unknown repetition type " + value + " in " + field);
    }
    return r;
  }

  ConvertedType convertedType(int value, String field) throws CorruptDataException {
    ConvertedType c = ConvertedType.fromValueOrNull(value);
    if (c == null) {
      // The ConvertedType list is frozen upstream, so this is damage, not a newer writer.
      throw corrupt("unknown converted type " + value + " in " + field);
    }
    return c;
  }

  CompressionCodec codec(int value, String field) throws UnsupportedFeatureException {
    CompressionCodec c = CompressionCodec.fromValueOrNull(value);
    if (c == null) {
      throw unsupported("unknown compression codec " + value + " in " + field);
    }
    return c;
  }

  Encoding encoding(int value, String field) throws UnsupportedFeatureException {
    Encoding e = Encoding.fromValueOrNull(value);
    if (e == null) {
      throw unsupported("unknown encoding " + value + " in " + field);
    }
    return e;
  }

  PageType pageType(int value, String field) throws UnsupportedFeatureException {
    PageType t = PageType.fromValueOrNull(value);
    if (t == null) {
      throw unsupported("unknown page type " + value + " in " + field);
    }
    return t;
  }

  BoundaryOrder boundaryOrder(int value, String field) throws UnsupportedFeatureException {
    BoundaryOrder b = BoundaryOrder.fromValueOrNull(value);
    if (b == null) {
      throw unsupported("unknown boundary order " + value + " in " + field);
    }
    return b;
  }

  CorruptDataException corrupt(String message) {
    return new CorruptDataException(what + ": " + message + " (at byte " + position() + ")");
  }

  UnsupportedFeatureException unsupported(String message) {
    return new UnsupportedFeatureException(what + ": " + message + " (at byte " + position() + ")");
  }
}
