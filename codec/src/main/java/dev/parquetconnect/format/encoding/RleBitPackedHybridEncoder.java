package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;
import java.util.Arrays;

/**
 * Encodes unsigned values of width 0..32 in the RLE / bit-packing hybrid (see {@link
 * RleBitPackedHybridDecoder} for the layout and for when the 4-byte length prefix is used).
 *
 * <p>Run choice: values are gathered in groups of eight. A group whose eight values are equal
 * starts a repeated run, which then swallows every following equal value; other groups are appended
 * to a bit-packed run. Bit-packed runs therefore always hold whole groups, and only the last one of
 * the page is padded (with zeros). A bit-packed run is closed after 63 groups so that its header,
 * reserved before its data, always fits one byte. At the end of the page a short tail of equal
 * values becomes a repeated run when that is no larger than a padded group.
 *
 * <p>Encoding is incremental, so {@link #estimatedSize()} is exact: the bytes written so far plus
 * what the pending group or run will add.
 */
final class RleBitPackedHybridEncoder implements ValuesEncoder {
  /** Groups per bit-packed run: 63 keeps the header ((63 << 1) | 1) to one byte. */
  private static final int MAX_GROUPS_PER_RUN = 63;

  /** Values per repeated run allowed by the format. */
  private static final int MAX_RUN = Integer.MAX_VALUE;

  private final boolean lengthPrefixed;
  private int bitWidth;
  private int valueBytes;
  private final GrowableBuffer body = new GrowableBuffer(256);
  private int valueCount;

  /** The values of the group being gathered; empty while a repeated run is open. */
  private final int[] group = new int[8];

  private int groupSize;

  /**
   * The last value and how many times it repeats at the end of the current group; 8 or more means a
   * repeated run is open (and the group is empty).
   */
  private int runValue;

  private int runLength;

  /** Position of the reserved header byte of the open bit-packed run, or -1. */
  private int packedHeaderPos = -1;

  private int packedGroups;

  public RleBitPackedHybridEncoder(int bitWidth, boolean lengthPrefixed) {
    this.lengthPrefixed = lengthPrefixed;
    setBitWidth(bitWidth);
  }

  private void setBitWidth(int width) {
    if (width < 0 || width > 32) {
      throw new IllegalArgumentException("bit width " + width + " outside 0..32");
    }
    this.bitWidth = width;
    this.valueBytes = (width + 7) >>> 3;
  }

  public int bitWidth() {
    return bitWidth;
  }

  @Override
  public Encoding encoding() {
    return Encoding.RLE;
  }

  /** Drops buffered values and continues with another bit width (per-page widths). */
  public void reset(int newBitWidth) {
    setBitWidth(newBitWidth);
    reset();
  }

  /** Values must fit the bit width; a wider one is a bug in the caller. */
  @Override
  public void writeInts(int[] src, int off, int len) {
    Decoders.checkRange(src.length, off, len);
    if (bitWidth < 32 && (BitPacking.or(src, off, off + len) >>> bitWidth) != 0) {
      throw new IllegalArgumentException(
          "RLE: a value in this batch does not fit bit width " + bitWidth);
    }
    addAll(src, off, off + len);
    valueCount += len;
  }

  /** {@link #writeInts} for a caller that has already checked the range and the widths. */
  void writeIntsChecked(int[] src, int off, int len) {
    addAll(src, off, off + len);
    valueCount += len;
  }

  /**
   * Adds {@code src[from, end)}: the same run choice as {@link #add} value by value, but whole
   * groups are taken straight from {@code src} while no group is half gathered: a repeated run is
   * extended with a tight scan, and consecutive groups that are not all equal are packed in one
   * call.
   */
  private void addAll(int[] src, int from, int end) {
    int i = from;
    while (i < end) {
      if (runLength >= 8) {
        // A repeated run is open (the group is empty): swallow every following equal value.
        int v = runValue;
        int stop = (int) Math.min(end, i + (long) (MAX_RUN - runLength));
        int j = i;
        while (j < stop && src[j] == v) {
          j++;
        }
        runLength += j - i;
        i = j;
        if (i == end) {
          return;
        }
        writeRepeatedRun(runValue, runLength);
        runLength = 0;
      }
      if (groupSize == 0 && end - i >= 8) {
        if (allEqual(src, i)) {
          // Eight equal values open a repeated run, which ends any bit-packed run.
          closePackedRun();
          runValue = src[i];
          runLength = 8;
          i += 8;
          continue;
        }
        // This group and the following ones that are not all equal are bit-packed directly.
        int groups = 1;
        int room = MAX_GROUPS_PER_RUN - (packedHeaderPos < 0 ? 0 : packedGroups);
        while (groups < room && end - i - (groups << 3) >= 8 && !allEqual(src, i + (groups << 3))) {
          groups++;
        }
        appendPackedGroups(src, i, groups);
        runLength = 0;
        i += groups << 3;
        continue;
      }
      add(src[i++]);
    }
  }

  /**
   * Whether {@code src[at, at + 8)} are all equal. Exits at the first difference: a group of
   * distinct values usually differs at once, and within long runs the answer repeats, so the
   * branches predict well.
   */
  private static boolean allEqual(int[] src, int at) {
    int v = src[at];
    for (int k = 1; k < 8; k++) {
      if (src[at + k] != v) {
        return false;
      }
    }
    return true;
  }

  /** Appends {@code groups} groups of eight values from {@code src}; they fit the open run. */
  private void appendPackedGroups(int[] src, int at, int groups) {
    if (packedHeaderPos < 0) {
      packedHeaderPos = body.size();
      body.writeByte(0);
      packedGroups = 0;
    }
    int bytes = groups * bitWidth;
    body.ensureCapacity(bytes);
    BitPacking.packInts(src, at, groups << 3, bitWidth, body.array(), body.size());
    body.advance(bytes);
    packedGroups += groups;
    if (packedGroups == MAX_GROUPS_PER_RUN) {
      closePackedRun();
    }
  }

  /** RLE-encoded BOOLEAN values; the encoder must have bit width 1. */
  @Override
  public void writeBooleans(boolean[] src, int off, int len) {
    if (bitWidth != 1) {
      throw new UnsupportedOperationException("RLE booleans need bit width 1, not " + bitWidth);
    }
    Decoders.checkRange(src.length, off, len);
    for (int i = off; i < off + len; i++) {
      add(src[i] ? 1 : 0);
    }
    valueCount += len;
  }

  private void add(int v) {
    if (runLength >= 8) {
      if (v == runValue && runLength < MAX_RUN) {
        runLength++;
        return;
      }
      writeRepeatedRun(runValue, runLength);
      runLength = 0;
    }
    if (groupSize > 0 && v == runValue) {
      runLength++;
    } else {
      runValue = v;
      runLength = 1;
    }
    group[groupSize++] = v;
    if (groupSize == 8) {
      groupSize = 0;
      if (runLength == 8) {
        // Eight equal values: they open a repeated run, which ends any bit-packed run.
        closePackedRun();
      } else {
        appendPackedGroup();
        runLength = 0;
      }
    }
  }

  private void writeRepeatedRun(int value, int count) {
    closePackedRun();
    body.writeUnsignedVarInt(count << 1);
    body.ensureCapacity(valueBytes);
    for (int k = 0; k < valueBytes; k++) {
      body.writeByte(value >>> (k << 3));
    }
  }

  private void appendPackedGroup() {
    if (packedHeaderPos < 0) {
      packedHeaderPos = body.size();
      body.writeByte(0);
      packedGroups = 0;
    }
    body.ensureCapacity(bitWidth);
    BitPacking.packInts(group, 0, 8, bitWidth, body.array(), body.size());
    body.advance(bitWidth);
    if (++packedGroups == MAX_GROUPS_PER_RUN) {
      closePackedRun();
    }
  }

  private void closePackedRun() {
    if (packedHeaderPos >= 0) {
      body.array()[packedHeaderPos] = (byte) ((packedGroups << 1) | 1);
      packedHeaderPos = -1;
    }
  }

  /** Writes out the pending run or group; the page ends here. */
  private void finish() {
    if (runLength >= 8) {
      writeRepeatedRun(runValue, runLength);
    } else if (groupSize > 0) {
      if (tailAsRepeatedRun()) {
        writeRepeatedRun(runValue, groupSize);
      } else {
        Arrays.fill(group, groupSize, 8, 0);
        appendPackedGroup();
      }
    }
    closePackedRun();
    runLength = 0;
    groupSize = 0;
  }

  /** Whether the last, incomplete group is all one value and no larger as a repeated run. */
  private boolean tailAsRepeatedRun() {
    return runLength == groupSize && repeatedRunSize(groupSize) <= packedGroupSize();
  }

  private int repeatedRunSize(int count) {
    return varIntSize(count << 1) + valueBytes;
  }

  /** Bytes one more bit-packed group adds, with the header of a new run if none is open. */
  private int packedGroupSize() {
    return bitWidth + (packedHeaderPos < 0 ? 1 : 0);
  }

  private static int varIntSize(int v) {
    int size = 1;
    while ((v & ~0x7F) != 0) {
      v >>>= 7;
      size++;
    }
    return size;
  }

  @Override
  public int valueCount() {
    return valueCount;
  }

  /** Exact: the bytes {@link #flushTo} would append now. */
  @Override
  public long estimatedSize() {
    long pending = 0;
    if (runLength >= 8) {
      pending = repeatedRunSize(runLength);
    } else if (groupSize > 0) {
      pending = tailAsRepeatedRun() ? repeatedRunSize(groupSize) : packedGroupSize();
    }
    return (lengthPrefixed ? 4 : 0) + body.size() + pending;
  }

  /**
   * Appends the page's encoded values (with the length prefix if this encoder has one) and starts a
   * new page.
   */
  @Override
  public void flushTo(GrowableBuffer out) {
    finish();
    if (lengthPrefixed) {
      out.writeIntLE(body.size());
    }
    out.write(body);
    reset();
  }

  @Override
  public void reset() {
    body.reset();
    valueCount = 0;
    groupSize = 0;
    runLength = 0;
    packedHeaderPos = -1;
    packedGroups = 0;
  }
}
