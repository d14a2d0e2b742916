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
 * struct nulls every leaf below it at its own depth). Only structs of text, 32- and 64-bit
 * integers, doubles, booleans and Timestamps are staged; the reader that fills a row reuses it for
 * every record of its schema. Not thread-safe.
 */
public final class StagedRow {
  public static final byte STRING = 0;
  public static final byte INT32 = 1;
  public static final byte INT64 = 2;
  public static final byte TIMESTAMP = 3;
  public static final byte FLOAT64 = 4;
  public static final byte BOOLEAN = 5;

  private final Schema schema;
  final byte[] kinds;
  final long[] longs;
  final double[] doubles;

  /** -1: the leaf has a value; else the depth of the node that is null. */
  final int[] nullAt;

  final int[] textFrom;
  final int[] textLength;

  /** The decoded text of a string with escapes (rare), else null: the range holds it. */
  final String[] escaped;

  byte[] source;

  /** Whether the row is a schemaless document's, of its inferred schema (for schemaless files). */
  private final boolean schemaless;

  private Schema refusedBy;

  /** A row of {@code schema}, a struct whose leaves are of {@code kinds} in column order. */
  public StagedRow(Schema schema, byte[] kinds) {
    this(schema, kinds, false);
  }

  /** As above; {@code schemaless}: the schema was inferred from a schemaless document. */
  public StagedRow(Schema schema, byte[] kinds, boolean schemaless) {
    this.schemaless = schemaless;
    this.schema = schema;
    this.kinds = kinds.clone();
    int n = kinds.length;
    this.longs = new long[n];
    this.doubles = new double[n];
    this.nullAt = new int[n];
    this.textFrom = new int[n];
    this.textLength = new int[n];
    this.escaped = new String[n];
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

  /** Starts a record whose text ranges are in {@code bytes}. */
  public void start(byte[] bytes) {
    source = bytes;
    Arrays.fill(escaped, null);
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

  /**
   * The leaf's value as the Struct path would hold it (a String, Integer, Long, Double, Boolean or
   * Date), or null: for tests and messages, not for the write.
   */
  public Object value(int leaf) {
    if (nullAt[leaf] >= 0) {
      return null;
    }
    return switch (kinds[leaf]) {
      case STRING -> StagedValueWriter.text(this, leaf);
      case INT32 -> (int) longs[leaf];
      case INT64 -> longs[leaf];
      case TIMESTAMP -> new java.util.Date(longs[leaf]);
      case FLOAT64 -> doubles[leaf];
      case BOOLEAN -> longs[leaf] != 0;
      default -> throw new IllegalStateException("no staged kind " + kinds[leaf]);
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
