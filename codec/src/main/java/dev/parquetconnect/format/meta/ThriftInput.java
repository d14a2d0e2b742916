package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TType;

/**
 * The hand-written struct readers' view of the Thrift compact protocol, decoded here directly from
 * the transport's bytes (as {@code TCompactProtocol} does, without its per-field objects and
 * indirections): field headers packed into an int, skipping of unknown fields with a nesting bound,
 * list headers checked against the input, and errors that name the structure and the byte position.
 * Struct readers call {@link #structBegin()}, loop on {@link #fieldBegin()} until {@link #STOP},
 * dispatch on {@link #id(int)} and use {@link #accept(int, byte)} to skip a known id sent with
 * another type, as Thrift's generated code does.
 */
final class ThriftInput {
  /** What {@link #fieldBegin()} returns at the end of a struct. */
  static final int STOP = -1;

  /** Deepest nesting of structs and containers accepted; Parquet's own structs use about 8. */
  static final int MAX_DEPTH = 64;

  // Compact protocol type nibbles (field headers and container element types).
  private static final int C_BOOLEAN_TRUE = 1;
  private static final int C_BOOLEAN_FALSE = 2;
  private static final int C_BYTE = 3;
  private static final int C_I16 = 4;
  private static final int C_I32 = 5;
  private static final int C_I64 = 6;
  private static final int C_DOUBLE = 7;
  private static final int C_BINARY = 8;
  private static final int C_LIST = 9;
  private static final int C_SET = 10;
  private static final int C_MAP = 11;
  private static final int C_STRUCT = 12;
  private static final int C_UUID = 13;

  /** No boolean value pending from a field header. */
  private static final int NO_BOOL = -1;

  private final ReadTransport transport;
  private final String what;
  private int depth;

  /** The id of the last field read in the current struct (field ids are sent as deltas). */
  private short lastFieldId;

  /** The enclosing structs' last field ids. */
  private short[] fieldIdStack = new short[16];

  private int structs;

  /** A BOOL field's value, carried in its header's type nibble: 1, 0, or {@link #NO_BOOL}. */
  private int pendingBool = NO_BOOL;

  /** The size and element type of the last list or map header, as {@code readXBegin} return. */
  private int containerSize;

  private byte elemType;
  private byte keyType;

  /**
   * @param what the structure being read, for error messages ("footer", "page header", ...)
   */
  ThriftInput(ReadTransport transport, String what) {
    this.transport = transport;
    this.what = what;
  }

  int position() {
    return transport.position();
  }

  // ---- structs and fields

  void structBegin() throws TException, CorruptDataException {
    if (++depth > MAX_DEPTH) {
      throw corrupt("structures nested deeper than " + MAX_DEPTH + " levels");
    }
    if (structs == fieldIdStack.length) {
      fieldIdStack = Arrays.copyOf(fieldIdStack, structs * 2);
    }
    fieldIdStack[structs++] = lastFieldId;
    lastFieldId = 0;
  }

  void structEnd() throws TException {
    depth--;
    lastFieldId = fieldIdStack[--structs];
  }

  /** The next field header as {@code type << 16 | id}, or {@link #STOP}. */
  int fieldBegin() throws TException {
    int header = transport.readByte();
    int compactType = header & 0x0F;
    if (compactType == 0) {
      // A zero byte ends the struct (a stray delta on a STOP type reads as the end as well).
      return STOP;
    }
    int delta = header >>> 4;
    short id = delta == 0 ? i16() : (short) (lastFieldId + delta);
    byte type = ttype(compactType);
    if (type == TType.BOOL) {
      pendingBool = compactType == C_BOOLEAN_TRUE ? 1 : 0;
    }
    lastFieldId = id;
    return (type << 16) | (id & 0xFFFF);
  }

  static int id(int field) {
    return (short) field;
  }

  static byte type(int field) {
    return (byte) (field >>> 16);
  }

  /** The TType of a compact type nibble. */
  private static byte ttype(int compactType) throws TProtocolException {
    return switch (compactType) {
      case 0 -> TType.STOP;
      case C_BOOLEAN_TRUE, C_BOOLEAN_FALSE -> TType.BOOL;
      case C_BYTE -> TType.BYTE;
      case C_I16 -> TType.I16;
      case C_I32 -> TType.I32;
      case C_I64 -> TType.I64;
      case C_DOUBLE -> TType.DOUBLE;
      case C_BINARY -> TType.STRING;
      case C_LIST -> TType.LIST;
      case C_SET -> TType.SET;
      case C_MAP -> TType.MAP;
      case C_STRUCT -> TType.STRUCT;
      case C_UUID -> TType.UUID;
      default ->
          throw new TProtocolException(
              TProtocolException.INVALID_DATA, "don't know what type: " + compactType);
    };
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
      throw corrupt(
          "required field " + struct + "." + fieldNames[id] + " (id " + id + ") is missing");
    }
  }

  // ---- values

  /** A BOOL field's value (from its header), or a BOOL list element (a byte: 1 is true). */
  boolean bool() throws TException {
    if (pendingBool != NO_BOOL) {
      boolean value = pendingBool == 1;
      pendingBool = NO_BOOL;
      return value;
    }
    return transport.readByte() == C_BOOLEAN_TRUE;
  }

  byte i8() throws TException {
    return (byte) transport.readByte();
  }

  short i16() throws TException {
    return (short) i32();
  }

  int i32() throws TException {
    int v = varint32();
    return (v >>> 1) ^ -(v & 1);
  }

  long i64() throws TException {
    long v = varint64();
    return (v >>> 1) ^ -(v & 1);
  }

  double dbl() throws TException {
    long bits = 0;
    for (int k = 0; k < 64; k += 8) {
      bits |= (long) transport.readByte() << k;
    }
    return Double.longBitsToDouble(bits);
  }

  String string() throws TException {
    return transport.readUtf8(length());
  }

  ByteString binary() throws TException {
    return ByteString.wrap(transport.readBytes(length()));
  }

  /** A binary's or string's length prefix. */
  private int length() throws TException {
    int length = varint32();
    if (length < 0) {
      throw new TProtocolException(TProtocolException.NEGATIVE_SIZE, "Negative length: " + length);
    }
    return length;
  }

  /** An unsigned LEB128 of at most 5 bytes (32 bits). */
  private int varint32() throws TException {
    int result = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      int b = transport.readByte();
      result |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new TProtocolException(TProtocolException.INVALID_DATA, "varint32 longer than 5 bytes");
  }

  /** An unsigned LEB128 of at most 10 bytes (64 bits). */
  private long varint64() throws TException {
    long result = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      int b = transport.readByte();
      result |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new TProtocolException(TProtocolException.INVALID_DATA, "varint64 longer than 10 bytes");
  }

  /** A list or set header: sets {@link #containerSize} and {@link #elemType}. */
  private void readListHeader() throws TException, CorruptDataException {
    int sizeAndType = transport.readByte();
    int size = sizeAndType >>> 4;
    if (size == 15) {
      size = varint32();
    }
    checkCount(size);
    elemType = ttype(sizeAndType & 0x0F);
    containerSize = size;
  }

  /** A map header: sets {@link #containerSize}, {@link #keyType} and {@link #elemType}. */
  private void readMapHeader() throws TException, CorruptDataException {
    int size = varint32();
    checkCount(size);
    int types = size == 0 ? 0 : transport.readByte();
    keyType = ttype(types >>> 4);
    elemType = ttype(types & 0x0F);
    containerSize = size;
  }

  // ---- lists

  /**
   * Reads a list header and returns its size. A list whose elements are not of the declared type is
   * skipped and -1 returned, so the caller treats the field as absent. Empty lists are accepted
   * with any element type, as some writers put a placeholder type there.
   */
  int listBegin(byte elemType) throws TException, CorruptDataException {
    readListHeader();
    int size = containerSize;
    byte declared = this.elemType;
    if (size > 0 && declared != elemType && !(isVarint(declared) && isVarint(elemType))) {
      skipElements(declared, size);
      return -1;
    }
    return size;
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
      list.add(i64());
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
      list.add(i32());
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
      list.add(bool());
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
      list.add(string());
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
   * returns the field id of the member set; 0 when that member was not sent as a struct, which no
   * known member matches. Exactly one member must be set.
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
      case TType.BOOL -> bool();
      case TType.BYTE -> i8();
      case TType.I16 -> i16();
      case TType.I32 -> i32();
      case TType.I64 -> i64();
      case TType.DOUBLE -> dbl();
      case TType.UUID -> {
        transport.checkReadBytesAvailable(16);
        transport.readBytes(16);
      }
      case TType.STRING -> transport.readBytes(length());
      case TType.STRUCT -> {
        structBegin();
        for (int f; (f = fieldBegin()) != STOP; ) {
          skip(type(f));
        }
        structEnd();
      }
      case TType.LIST, TType.SET -> {
        readListHeader();
        skipElements(elemType, containerSize);
      }
      case TType.MAP -> {
        readMapHeader();
        int size = containerSize;
        byte keys = keyType;
        byte values = elemType;
        enterContainer();
        for (int i = 0; i < size; i++) {
          skip(keys);
          skip(values);
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
      throw corrupt(
          "a container of "
              + size
              + " elements cannot fit the "
              + transport.remaining()
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
