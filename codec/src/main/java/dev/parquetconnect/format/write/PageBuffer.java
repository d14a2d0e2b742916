package dev.parquetconnect.format.write;

import dev.parquetconnect.format.encoding.BinaryBatch;
import dev.parquetconnect.format.io.Utf8;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.Arrays;

/**
 * The open data page of one column: its levels and its non-null values, unencoded, in primitive
 * arrays (a {@link BinaryBatch} for byte strings), so writing a value allocates nothing and the
 * page can be encoded in whatever encoding turns out best when it closes. Arrays grow by doubling
 * and are kept for the next page.
 */
final class PageBuffer {
  /** Small: a sink keeps a writer per open file, thousands of them; arrays grow as needed. */
  private static final int INITIAL = 32;

  final PhysicalType type;
  final boolean hasDefinitionLevels;
  final boolean hasRepetitionLevels;

  /** Bytes per value in PLAIN (BYTE_ARRAY: per value besides its bytes, the length prefix). */
  private final int plainWidth;

  /** Level arrays the page keeps (0 to 2): asked at every record start of every column. */
  private final int levelArrays;

  int[] definitionLevels;
  int[] repetitionLevels;

  /** Length of the level arrays; unbounded when the column stores no levels. */
  private int levelCapacity;

  /** Level entries: one per value or null, i.e. the page header's num_values. */
  int entries;

  /** Records started in this page (entries with repetition level 0). */
  int rows;

  boolean[] booleans;
  int[] ints;
  long[] longs;
  float[] floats;
  double[] doubles;
  final BinaryBatch binaries;

  /** Non-null values. */
  int values;

  /** The values' PLAIN size (not for BOOLEAN: see {@link #valueBytes()}). */
  long valueBytes;

  /**
   * The file's totals, which every change of {@link #bufferedBytes} and {@link #heapBytes} adds to.
   */
  private final HeldBytes held;

  /** A page of its own, counted in no file's totals (a slice of another page, a test's). */
  PageBuffer(PhysicalType type, int typeLength, int maxDefinitionLevel, int maxRepetitionLevel) {
    this(type, typeLength, maxDefinitionLevel, maxRepetitionLevel, new HeldBytes());
  }

  PageBuffer(
      PhysicalType type,
      int typeLength,
      int maxDefinitionLevel,
      int maxRepetitionLevel,
      HeldBytes held) {
    this.held = held;
    this.type = type;
    this.hasDefinitionLevels = maxDefinitionLevel > 0;
    this.hasRepetitionLevels = maxRepetitionLevel > 0;
    definitionLevels = hasDefinitionLevels ? new int[INITIAL] : null;
    repetitionLevels = hasRepetitionLevels ? new int[INITIAL] : null;
    levelCapacity = hasDefinitionLevels || hasRepetitionLevels ? INITIAL : Integer.MAX_VALUE;
    levelArrays = (hasDefinitionLevels ? 1 : 0) + (hasRepetitionLevels ? 1 : 0);
    plainWidth =
        switch (type) {
          case BOOLEAN -> 0; // an eighth of a byte: counted in valueBytes() instead
          case INT32, FLOAT -> 4;
          case INT64, DOUBLE -> 8;
          case INT96 -> 12;
          case FIXED_LEN_BYTE_ARRAY -> typeLength;
          case BYTE_ARRAY -> 4;
        };
    switch (type) {
      case BOOLEAN -> booleans = new boolean[INITIAL];
      case INT32 -> ints = new int[INITIAL];
      case INT64 -> longs = new long[INITIAL];
      case FLOAT -> floats = new float[INITIAL];
      case DOUBLE -> doubles = new double[INITIAL];
      default -> {}
    }
    binaries =
        type == PhysicalType.BYTE_ARRAY
                || type == PhysicalType.FIXED_LEN_BYTE_ARRAY
                || type == PhysicalType.INT96
            ? new BinaryBatch(INITIAL, 512)
            : null;
    held.heapBytes += heapBytes();
  }

  /** The PLAIN size of the buffered values, levels not counted. */
  long valueBytes() {
    return type == PhysicalType.BOOLEAN ? (values + 7) >>> 3 : valueBytes;
  }

  /**
   * The page's size as the page limit sees it: the values' PLAIN size plus a quarter byte per
   * level, a generous guess at what RLE makes of levels, so a page of nulls or of long lists is
   * bounded too.
   */
  long bufferedBytes() {
    return valueBytes() + levelBytes(entries);
  }

  /**
   * The heap the page's arrays take, whatever they hold now: they grow by doubling and are kept for
   * the next page, so a sink's memory budget counts this rather than {@link #bufferedBytes()}.
   */
  long heapBytes() {
    long levels = levelCapacity == Integer.MAX_VALUE ? 0 : 4L * levelCapacity * levelArrays;
    long valueArrays =
        switch (type) {
          case BOOLEAN -> booleans.length;
          case INT32 -> 4L * ints.length;
          case INT64 -> 8L * longs.length;
          case FLOAT -> 4L * floats.length;
          case DOUBLE -> 8L * doubles.length;
          case INT96, FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY -> binaries.capacityBytes();
        };
    return levels + valueArrays;
  }

  /** The levels' share of {@link #bufferedBytes()} for {@code entryCount} entries. */
  long levelBytes(long entryCount) {
    return entryCount * levelArrays >>> 2;
  }

  boolean isEmpty() {
    return entries == 0;
  }

  void clear() {
    held.bufferedBytes -= bufferedBytes();
    entries = 0;
    rows = 0;
    values = 0;
    valueBytes = 0;
    if (binaries != null) {
      binaries.clear();
    }
  }

  /**
   * Drops the last record's entries, which start at entry {@code from} (a repetition level 0) and
   * hold the values from {@code valueFrom} on: the page is as it was before that record.
   */
  void dropLastRecord(int from, int valueFrom) {
    if (from < 0 || from >= entries || valueFrom < 0 || valueFrom > values) {
      throw new IllegalStateException("no record at entry " + from + " of " + entries);
    }
    long bufferedBefore = bufferedBytes();
    int dropped = values - valueFrom;
    if (type == PhysicalType.BYTE_ARRAY) {
      int[] offsets = binaries.offsets();
      valueBytes -= 4L * dropped + (offsets[values] - offsets[valueFrom]);
    } else {
      valueBytes -= (long) plainWidth * dropped; // BOOLEAN: plainWidth 0, counted from values
    }
    if (binaries != null) {
      binaries.truncate(valueFrom);
    }
    values = valueFrom;
    entries = from;
    rows--;
    held.bufferedBytes += bufferedBytes() - bufferedBefore;
  }

  // ---- levels

  /** Makes room for {@code n} more level entries. */
  void reserveEntries(int n) {
    long needed = (long) entries + n;
    if (needed <= levelCapacity) {
      return;
    }
    int capacity = grow(levelCapacity, needed);
    held.heapBytes += 4L * (capacity - levelCapacity) * levelArrays;
    if (hasDefinitionLevels) {
      definitionLevels = Arrays.copyOf(definitionLevels, capacity);
    }
    if (hasRepetitionLevels) {
      repetitionLevels = Arrays.copyOf(repetitionLevels, capacity);
    }
    levelCapacity = capacity;
  }

  /** Appends one entry's levels. */
  void addEntry(int repetitionLevel, int definitionLevel) {
    if (entries == levelCapacity) {
      reserveEntries(1);
    }
    if (hasDefinitionLevels) {
      definitionLevels[entries] = definitionLevel;
    }
    if (hasRepetitionLevels) {
      repetitionLevels[entries] = repetitionLevel;
    }
    held.bufferedBytes += levelBytes(entries + 1L) - levelBytes(entries);
    entries++;
    if (repetitionLevel == 0) {
      rows++;
    }
  }

  /** Appends {@code n} entries' levels from the caller's arrays (null when a level is absent). */
  void addEntries(int[] repetition, int[] definition, int off, int n, int newRows) {
    reserveEntries(n);
    if (hasDefinitionLevels) {
      System.arraycopy(definition, off, definitionLevels, entries, n);
    }
    if (hasRepetitionLevels) {
      System.arraycopy(repetition, off, repetitionLevels, entries, n);
    }
    held.bufferedBytes += levelBytes((long) entries + n) - levelBytes(entries);
    entries += n;
    rows += newRows;
  }

  // ---- values: one value at a time

  void addBoolean(boolean v) {
    if (values == booleans.length) {
      booleans = Arrays.copyOf(booleans, grow(values, values + 1L));
      held.heapBytes += booleans.length - values;
    }
    held.bufferedBytes += ((values + 8L) >>> 3) - ((values + 7L) >>> 3);
    booleans[values++] = v;
  }

  void addInt(int v) {
    if (values == ints.length) {
      ints = Arrays.copyOf(ints, grow(values, values + 1L));
      held.heapBytes += 4L * (ints.length - values);
    }
    ints[values++] = v;
    valueBytes += 4;
    held.bufferedBytes += 4;
  }

  void addLong(long v) {
    if (values == longs.length) {
      longs = Arrays.copyOf(longs, grow(values, values + 1L));
      held.heapBytes += 8L * (longs.length - values);
    }
    longs[values++] = v;
    valueBytes += 8;
    held.bufferedBytes += 8;
  }

  void addFloat(float v) {
    if (values == floats.length) {
      floats = Arrays.copyOf(floats, grow(values, values + 1L));
      held.heapBytes += 4L * (floats.length - values);
    }
    floats[values++] = v;
    valueBytes += 4;
    held.bufferedBytes += 4;
  }

  void addDouble(double v) {
    if (values == doubles.length) {
      doubles = Arrays.copyOf(doubles, grow(values, values + 1L));
      held.heapBytes += 8L * (doubles.length - values);
    }
    doubles[values++] = v;
    valueBytes += 8;
    held.bufferedBytes += 8;
  }

  void addBinary(byte[] src, int off, int len) {
    long capacity = binaries.capacityBytes();
    binaries.add(src, off, len);
    held.heapBytes += binaries.capacityBytes() - capacity;
    values++;
    long bytes = type == PhysicalType.BYTE_ARRAY ? 4L + len : plainWidth;
    valueBytes += bytes;
    held.bufferedBytes += bytes;
  }

  /** A BYTE_ARRAY value as the UTF-8 bytes of {@code s}, encoded in place. */
  void addString(String s) {
    long capacity = binaries.capacityBytes();
    binaries.ensureCapacity(1, Utf8.maxBytes(s));
    held.heapBytes += binaries.capacityBytes() - capacity;
    int length = Utf8.encode(s, binaries.data(), binaries.byteSize());
    binaries.commit(length);
    values++;
    valueBytes += 4L + length;
    held.bufferedBytes += 4L + length;
  }

  // ---- values: batches

  void addBooleans(boolean[] src, int off, int n) {
    if (values + n > booleans.length) {
      int before = booleans.length;
      booleans = Arrays.copyOf(booleans, grow(booleans.length, (long) values + n));
      held.heapBytes += booleans.length - before;
    }
    System.arraycopy(src, off, booleans, values, n);
    held.bufferedBytes += ((values + n + 7L) >>> 3) - ((values + 7L) >>> 3);
    values += n;
  }

  void addInts(int[] src, int off, int n) {
    if (values + n > ints.length) {
      int before = ints.length;
      ints = Arrays.copyOf(ints, grow(ints.length, (long) values + n));
      held.heapBytes += 4L * (ints.length - before);
    }
    System.arraycopy(src, off, ints, values, n);
    values += n;
    valueBytes += 4L * n;
    held.bufferedBytes += 4L * n;
  }

  void addLongs(long[] src, int off, int n) {
    if (values + n > longs.length) {
      int before = longs.length;
      longs = Arrays.copyOf(longs, grow(longs.length, (long) values + n));
      held.heapBytes += 8L * (longs.length - before);
    }
    System.arraycopy(src, off, longs, values, n);
    values += n;
    valueBytes += 8L * n;
    held.bufferedBytes += 8L * n;
  }

  void addFloats(float[] src, int off, int n) {
    if (values + n > floats.length) {
      int before = floats.length;
      floats = Arrays.copyOf(floats, grow(floats.length, (long) values + n));
      held.heapBytes += 4L * (floats.length - before);
    }
    System.arraycopy(src, off, floats, values, n);
    values += n;
    valueBytes += 4L * n;
    held.bufferedBytes += 4L * n;
  }

  void addDoubles(double[] src, int off, int n) {
    if (values + n > doubles.length) {
      int before = doubles.length;
      doubles = Arrays.copyOf(doubles, grow(doubles.length, (long) values + n));
      held.heapBytes += 8L * (doubles.length - before);
    }
    System.arraycopy(src, off, doubles, values, n);
    values += n;
    valueBytes += 8L * n;
    held.bufferedBytes += 8L * n;
  }

  /** Appends values {@code from .. from + n - 1} of {@code src}. */
  void addBinaries(BinaryBatch src, int from, int n) {
    int[] offsets = src.offsets();
    int first = offsets[from];
    int bytes = offsets[from + n] - first;
    long capacity = binaries.capacityBytes();
    binaries.ensureCapacity(n, bytes);
    held.heapBytes += binaries.capacityBytes() - capacity;
    int base = binaries.byteSize();
    System.arraycopy(src.data(), first, binaries.data(), base, bytes);
    // The bytes are in place; committing value by value records each one's end offset.
    for (int i = 0; i < n; i++) {
      binaries.commit(offsets[from + i + 1] - offsets[from + i]);
    }
    values += n;
    long added = type == PhysicalType.BYTE_ARRAY ? 4L * n + bytes : (long) plainWidth * n;
    valueBytes += added;
    held.bufferedBytes += added;
  }

  /**
   * A new page holding entries {@code [entryFrom, entryTo)} and values {@code [valueFrom, valueTo)}
   * of this one, which the caller has matched (the values of exactly those entries).
   */
  PageBuffer slice(int typeLength, int entryFrom, int entryTo, int valueFrom, int valueTo) {
    PageBuffer slice =
        new PageBuffer(type, typeLength, hasDefinitionLevels ? 1 : 0, hasRepetitionLevels ? 1 : 0);
    int n = entryTo - entryFrom;
    int newRows = n;
    if (hasRepetitionLevels) {
      newRows = 0;
      for (int i = entryFrom; i < entryTo; i++) {
        if (repetitionLevels[i] == 0) {
          newRows++;
        }
      }
    }
    slice.addEntries(repetitionLevels, definitionLevels, entryFrom, n, newRows);
    int m = valueTo - valueFrom;
    switch (type) {
      case BOOLEAN -> slice.addBooleans(booleans, valueFrom, m);
      case INT32 -> slice.addInts(ints, valueFrom, m);
      case INT64 -> slice.addLongs(longs, valueFrom, m);
      case FLOAT -> slice.addFloats(floats, valueFrom, m);
      case DOUBLE -> slice.addDoubles(doubles, valueFrom, m);
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 -> slice.addBinaries(binaries, valueFrom, m);
    }
    return slice;
  }

  private static int grow(int current, long needed) {
    if (needed > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("a page cannot hold more than 2^31 entries");
    }
    return (int) Math.max(needed, Math.min((long) current * 2, Integer.MAX_VALUE - 16));
  }
}
