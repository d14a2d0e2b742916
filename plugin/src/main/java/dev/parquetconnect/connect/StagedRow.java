package dev.parquetconnect.connect;

import java.util.Arrays;
import org.apache.kafka.connect.data.Schema;

/**
 * One record's value of a struct schema, read from raw JSON into primitives and byte ranges of the
 * record's bytes, before any column sees it: the JSON reader fills it completely or gives up, and
 * only a complete row is appended ({@link ConnectRecordShredder#shredStaged}), so a record that
 * fails part way leaves the column writers untouched.
 *
 * <p>Every leaf of the schema (depth first, the order of the file's columns) has one entry: a value
 * or a null, the null noting the depth of the node that is null (0: the top-level field; a null
 * struct nulls every leaf below it at its own depth). Structs of every Connect leaf type are
 * staged: integers of 8 to 64 bits, floats, doubles and booleans as primitives, text as byte ranges
 * of the record, bytes decoded into one scratch array the row reuses, decimals as an unscaled
 * {@code long} and its scale, Date as days, Time as milliseconds of the day, Timestamp as epoch
 * milliseconds. The reader that fills a row reuses it for every record of its schema.
 *
 * <p>A leaf inside an array (an array of leaves: {@link #repeated}) holds its list: null (at a
 * depth, as any leaf), or its elements, each a value or a null in a slot of its own past the
 * leaves' (the same arrays, grown as a record needs and kept for the next), contiguous from {@link
 * #firstSlot}. Not thread-safe.
 */
public final class StagedRow {
  public static final byte STRING = 0;
  public static final byte INT32 = 1;
  public static final byte INT64 = 2;
  public static final byte TIMESTAMP = 3;
  public static final byte FLOAT64 = 4;
  public static final byte BOOLEAN = 5;
  public static final byte INT8 = 6;
  public static final byte INT16 = 7;
  public static final byte FLOAT32 = 8;
  public static final byte BYTES = 9;
  public static final byte DECIMAL = 10;
  public static final byte DATE = 11;
  public static final byte TIME = 12;

  private static final long MILLIS_PER_DAY = 86_400_000L;

  private final Schema schema;
  final byte[] kinds;

  /** Per leaf, whether it is the element of an array (its values are a list of slots). */
  final boolean[] repeated;

  // Per slot: a leaf's value (slot = leaf), or an element of a repeated leaf (slots from n on).
  long[] longs;
  double[] doubles;

  /** -1: the slot has a value; else the depth of the node that is null (an element's: 0). */
  int[] nullAt;

  int[] textFrom;
  int[] textLength;

  /** The decoded text of a string with escapes (rare), else null: the range holds it. */
  String[] escaped;

  /** Per repeated leaf, its first element's slot and how many elements it has. */
  final int[] firstSlot;

  final int[] elementCount;

  /** The next free slot of this record. */
  private int slotEnd;

  byte[] source;

  /** A decimal's scale (its unscaled value is in {@link #longs}). */
  int[] scales;

  /** Bytes given as an array of their own (a default), else null: the range is in scratch. */
  byte[][] ownBytes;

  /** Decoded bytes of this record's BYTES leaves, at {@link #textFrom} and {@link #textLength}. */
  byte[] scratch = new byte[64];

  private int scratchEnd;

  /** Whether the row is a schemaless document's, of its inferred schema (for schemaless files). */
  private final boolean schemaless;

  private Schema refusedBy;

  /** A row of {@code schema}, a struct whose leaves are of {@code kinds} in column order. */
  public StagedRow(Schema schema, byte[] kinds) {
    this(schema, kinds, new boolean[kinds.length], false);
  }

  /** As above; {@code schemaless}: the schema was inferred from a schemaless document. */
  public StagedRow(Schema schema, byte[] kinds, boolean schemaless) {
    this(schema, kinds, new boolean[kinds.length], schemaless);
  }

  /**
   * A row of {@code schema}, a struct whose leaves are of {@code kinds} in column order, those
   * marked {@code repeated} the elements of arrays.
   */
  public StagedRow(Schema schema, byte[] kinds, boolean[] repeated) {
    this(schema, kinds, repeated, false);
  }

  private StagedRow(Schema schema, byte[] kinds, boolean[] repeated, boolean schemaless) {
    this.schemaless = schemaless;
    this.schema = schema;
    this.kinds = kinds.clone();
    this.repeated = repeated.clone();
    int n = kinds.length;
    this.firstSlot = new int[n];
    this.elementCount = new int[n];
    this.slotEnd = n;
    this.longs = new long[n];
    this.doubles = new double[n];
    this.nullAt = new int[n];
    this.textFrom = new int[n];
    this.textLength = new int[n];
    this.escaped = new String[n];
    this.scales = new int[n];
    this.ownBytes = new byte[n][];
  }

  public Schema schema() {
    return schema;
  }

  public boolean schemaless() {
    return schemaless;
  }

  /**
   * The value schema of the schemaless file that last refused this row (another schema), or null:
   * the reader then learns its next layout for that file's schema.
   */
  public Schema refusedBy() {
    return refusedBy;
  }

  public void refusedBy(Schema fileSchema) {
    refusedBy = fileSchema;
  }

  public int leafCount() {
    return kinds.length;
  }

  byte[] kinds() {
    return kinds;
  }

  boolean[] repeatedLeaves() {
    return repeated;
  }

  /** Starts the list of a repeated leaf: empty so far, not null. */
  public void startList(int leaf) {
    firstSlot[leaf] = slotEnd;
    elementCount[leaf] = 0;
    nullAt[leaf] = -1;
  }

  /**
   * Adds an element to the list of {@code leaf} (the list started last): the slot its value or null
   * goes to, with the setters.
   */
  public int addElement(int leaf) {
    if (slotEnd == longs.length) {
      int size = 2 * longs.length;
      longs = Arrays.copyOf(longs, size);
      doubles = Arrays.copyOf(doubles, size);
      nullAt = Arrays.copyOf(nullAt, size);
      textFrom = Arrays.copyOf(textFrom, size);
      textLength = Arrays.copyOf(textLength, size);
      escaped = Arrays.copyOf(escaped, size);
      scales = Arrays.copyOf(scales, size);
      ownBytes = Arrays.copyOf(ownBytes, size);
    }
    elementCount[leaf]++;
    return slotEnd++;
  }

  /** Starts a record whose text ranges are in {@code bytes}. */
  public void start(byte[] bytes) {
    source = bytes;
    Arrays.fill(escaped, null);
    scratchEnd = 0;
    slotEnd = kinds.length;
  }

  public void setLong(int leaf, long value) {
    longs[leaf] = value;
    nullAt[leaf] = -1;
  }

  public void setDouble(int leaf, double value) {
    doubles[leaf] = value;
    nullAt[leaf] = -1;
  }

  public void setBoolean(int leaf, boolean value) {
    longs[leaf] = value ? 1 : 0;
    nullAt[leaf] = -1;
  }

  /** Text given by its UTF-8 bytes {@code [from, from + length)} of the record (checked UTF-8). */
  public void setText(int leaf, int from, int length) {
    textFrom[leaf] = from;
    textLength[leaf] = length;
    escaped[leaf] = null;
    nullAt[leaf] = -1;
  }

  /** Text that had escapes, decoded. */
  public void setEscapedText(int leaf, String text) {
    escaped[leaf] = text;
    nullAt[leaf] = -1;
  }

  public void setFloat(int leaf, float value) {
    doubles[leaf] = value;
    nullAt[leaf] = -1;
  }

  /** A decimal {@code unscaled * 10^-scale}. */
  public void setDecimal(int leaf, long unscaled, int scale) {
    longs[leaf] = unscaled;
    scales[leaf] = scale;
    nullAt[leaf] = -1;
  }

  /** Bytes held by an array of their own, which must not change (a schema's default). */
  public void setBytes(int leaf, byte[] bytes) {
    ownBytes[leaf] = bytes;
    textFrom[leaf] = 0;
    textLength[leaf] = bytes.length;
    nullAt[leaf] = -1;
  }

  /**
   * The scratch array with room for {@code length} more bytes from {@link #scratchEnd()}, where a
   * reader decodes a value before {@link #setScratchBytes} or {@link #setDecimalBytes} takes it.
   */
  public byte[] scratch(int length) {
    if (scratch.length - scratchEnd < length) {
      scratch = Arrays.copyOf(scratch, Math.max(scratchEnd + length, 2 * scratch.length));
    }
    return scratch;
  }

  /** Where the next decoded bytes go in {@link #scratch}. */
  public int scratchEnd() {
    return scratchEnd;
  }

  /** The leaf's bytes are the {@code length} bytes decoded at {@link #scratchEnd()}. */
  public void setScratchBytes(int leaf, int length) {
    ownBytes[leaf] = null;
    textFrom[leaf] = scratchEnd;
    textLength[leaf] = length;
    scratchEnd += length;
    nullAt[leaf] = -1;
  }

  /**
   * The leaf's decimal is the two's complement big-endian integer of the {@code length} bytes
   * decoded at {@link #scratchEnd()} (as Connect's {@code Decimal.toLogical} reads them) at {@code
   * scale}; false, the leaf unset, when there are none or the integer needs more than 64 bits.
   */
  public boolean setDecimalBytes(int leaf, int length, int scale) {
    if (length == 0) {
      return false;
    }
    byte[] b = scratch;
    int from = scratchEnd;
    int low = from + Math.max(0, length - 8);
    long value = b[low]; // sign-extended
    byte sign = (byte) (value < 0 ? -1 : 0);
    for (int i = from; i < low; i++) {
      if (b[i] != sign) {
        return false;
      }
    }
    for (int i = low + 1; i < from + length; i++) {
      value = (value << 8) | (b[i] & 0xFF);
    }
    setDecimal(leaf, value, scale);
    return true;
  }

  /**
   * The leaf's value as the Struct path would hold it (a String, Byte, Short, Integer, Long, Float,
   * Double, Boolean, byte[], BigDecimal or java.util.Date), or null: for tests and messages, not
   * for the write.
   */
  public Object value(int leaf) {
    if (nullAt[leaf] >= 0) {
      return null;
    }
    if (repeated[leaf]) {
      java.util.List<Object> list = new java.util.ArrayList<>();
      for (int i = 0; i < elementCount[leaf]; i++) {
        int slot = firstSlot[leaf] + i;
        list.add(nullAt[slot] >= 0 ? null : slotValue(kinds[leaf], slot));
      }
      return list;
    }
    return slotValue(kinds[leaf], leaf);
  }

  private Object slotValue(byte kind, int leaf) {
    return switch (kind) {
      case STRING -> StagedValueWriter.text(this, leaf);
      case INT32 -> (int) longs[leaf];
      case INT64 -> longs[leaf];
      case TIMESTAMP -> new java.util.Date(longs[leaf]);
      case FLOAT64 -> doubles[leaf];
      case BOOLEAN -> longs[leaf] != 0;
      case INT8 -> (byte) longs[leaf];
      case INT16 -> (short) longs[leaf];
      case FLOAT32 -> (float) doubles[leaf];
      case BYTES -> {
        byte[] from = ownBytes[leaf] != null ? ownBytes[leaf] : scratch;
        yield Arrays.copyOfRange(from, textFrom[leaf], textFrom[leaf] + textLength[leaf]);
      }
      case DECIMAL -> java.math.BigDecimal.valueOf(longs[leaf], scales[leaf]);
      case DATE -> new java.util.Date(longs[leaf] * MILLIS_PER_DAY);
      case TIME -> new java.util.Date(longs[leaf]);
      default -> throw new IllegalStateException("no staged kind " + kind);
    };
  }

  /** The depth of the node that is null for the leaf, -1 when it has a value (tests). */
  public int nullDepth(int leaf) {
    return nullAt[leaf];
  }

  /** A null at {@code depth} for the leaf. */
  public void setNull(int leaf, int depth) {
    nullAt[leaf] = depth;
  }
}
