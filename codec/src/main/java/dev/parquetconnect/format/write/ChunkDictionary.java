package dev.parquetconnect.format.write;

import dev.parquetconnect.format.encoding.BitPacking;
import dev.parquetconnect.format.encoding.DictionaryBuilder;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.Arrays;

/**
 * The dictionary of one column chunk while its pages close ({@link ChunkBuilder}): whether it is
 * still tried and whether a page used it, the trial on a first page's leading values, the split of
 * a page where its index width grows, and the dictionary-encoded page bodies.
 */
final class ChunkDictionary {
  /**
   * Values of the chunk's first page a dictionary must pay on before it sees the rest: a column of
   * distinct values (ids, timestamps, measurements) is refused after hashing this many, not a whole
   * page of them (a 1 MiB page of longs is 131,072, whose hash table would take a few MiB of heap
   * per column only to be dropped).
   */
  static final int TRIAL_VALUES = 16_384;

  /** Bytes of indices a split must save: a page boundary costs well under a tenth of this. */
  private static final int MIN_SPLIT_SAVING = 1024;

  private final DictionaryBuilder builder;
  private final PhysicalType type;
  private final int maxDefinitionLevel;
  private final PageScratch scratch;

  /** Whether pages are compressed: what the run threshold of dictionary indices follows. */
  private final boolean compressed;

  /** Whether dictionary pages split where their index width grows ({@link #narrowerHead}). */
  private final boolean splitsByIndexWidth;

  private final int byteLimit;

  /** Whether the next page tries the dictionary. */
  private boolean active = true;

  /** Whether a page of the chunk is dictionary-encoded (the chunk then has a dictionary page). */
  private boolean used;

  /** The page whose dictionary indices {@code scratch.indices} holds, or null. */
  private PageBuffer indexedPage;

  /**
   * The page whose first {@link #trialValues} values the dictionary trial added (their indices are
   * in {@code scratch.indices}), or null: the page's encoding goes on from there instead of looking
   * those values up a second time.
   */
  private PageBuffer trialPage;

  private int trialValues;
  private int[] seenIndexStamps = new int[0];
  private int pageStamp;

  ChunkDictionary(
      DictionaryBuilder builder,
      int maxDefinitionLevel,
      PageScratch scratch,
      boolean compressed,
      boolean splitsByIndexWidth,
      int byteLimit) {
    this.builder = builder;
    this.type = builder.type();
    this.maxDefinitionLevel = maxDefinitionLevel;
    this.scratch = scratch;
    this.compressed = compressed;
    this.splitsByIndexWidth = splitsByIndexWidth;
    this.byteLimit = byteLimit;
  }

  DictionaryBuilder builder() {
    return builder;
  }

  boolean active() {
    return active;
  }

  boolean used() {
    return used;
  }

  /** Forgets the page whose indices were kept: the writer reuses one PageBuffer. */
  void pageDone() {
    indexedPage = null;
    trialPage = null;
  }

  /** Starts the next chunk: an empty dictionary, tried again. */
  void reset() {
    builder.clear();
    active = true;
    used = false;
  }

  /** Per dictionary index, the stamp of the last page that compared its value for statistics. */
  int[] seenIndices() {
    int size = builder.dictionarySize();
    if (seenIndexStamps.length < size) {
      seenIndexStamps = Arrays.copyOf(seenIndexStamps, Math.max(size, seenIndexStamps.length * 2));
    }
    return seenIndexStamps;
  }

  int nextPageStamp() {
    if (++pageStamp == Integer.MAX_VALUE) {
      Arrays.fill(seenIndexStamps, 0);
      pageStamp = 1;
    }
    return pageStamp;
  }

  /**
   * How many leading values of a dictionary-encoded page to close as a page of their own, or 0. A
   * page's indices all take the width of its largest one, and a dictionary that keeps growing
   * (prices, ids, anything with a long tail) crosses a power of two somewhere in a large page: the
   * indices before that point then fit one bit or more narrower. Splitting there pays when those
   * bits outweigh a page boundary (header, page index entries, and under a codec a new frame);
   * {@link #MIN_SPLIT_SAVING} bytes of bit-packed indices do by far. Not under codecs with an
   * entropy coder (ZSTD, GZIP, Brotli): they squeeze the unused high bits themselves, and the split
   * then costs more context than it saves (FileSizeTest). Flat columns only, where every entry
   * starts a record. The values are added to the dictionary here, in page order, so the two halves
   * find the same indices when they are encoded.
   */
  int narrowerHead(PageBuffer page) {
    int n = page.values;
    if (!splitsByIndexWidth
        || page.hasRepetitionLevels
        || n < 2
        || (long) n * 32 / 8 < MIN_SPLIT_SAVING) {
      return 0;
    }
    int[] indices = scratch.indices(n);
    add(page, page.values, indices);
    indexedPage = page; // encode reuses the indices unless the page is split
    int all = 0;
    for (int i = 0; i < n; i++) {
      all |= indices[i];
    }
    int width = BitPacking.bitWidth(all);
    if (width < 2) {
      return 0;
    }
    int widest = 1 << (width - 1);
    int first = 0;
    int before = 0;
    while (indices[first] < widest) {
      before |= indices[first++];
    }
    long saving = (long) first * (width - BitPacking.bitWidth(before)) / 8;
    if (first == 0 || saving < MIN_SPLIT_SAVING) {
      return 0;
    }
    if (!used) {
      // The head decides whether the chunk keeps its dictionary (the whole dictionary against
      // the head's values): split only when the head alone pays for it, as the page would.
      long headIndexBytes = 1 + ((long) first * BitPacking.bitWidth(before) + 7) / 8;
      if (builder.dictionaryByteSize() + headIndexBytes >= plainBytes(page, first)) {
        return 0;
      }
    }
    return first;
  }

  /** Drops the dictionary when the page's first values show it does not pay. */
  void tryOnFirstValues(PageBuffer page) {
    int k = TRIAL_VALUES;
    int[] indices = scratch.indices(k);
    add(page, k, indices);
    // The same test as the whole page gets in encode, on its first values (scratch.values is
    // free until then).
    scratch.values.reset();
    int indexBytes = encodeIndices(indices, k, scratch.values);
    if (builder.dictionaryByteSize() + indexBytes >= plainBytes(page, k)) {
      builder.clear();
      active = false;
    } else {
      trialPage = page;
      trialValues = k;
    }
  }

  /**
   * Encodes the page's values as dictionary indices into {@code out} and returns true, or returns
   * false (and stops trying for the chunk) when no page used the dictionary yet and this one shows
   * it does not pay or passes the size limit.
   */
  boolean encode(PageBuffer page, GrowableBuffer out) {
    int n = page.values;
    int[] indices = scratch.indices(n);
    if (indexedPage != page) {
      add(page, n, indices);
    }
    indexedPage = null;
    int indexBytes = encodeIndices(indices, n, out);
    boolean overLimit = builder.dictionaryByteSize() > byteLimit;
    boolean pays = builder.dictionaryByteSize() + indexBytes < page.valueBytes();
    if (!used && (overLimit || !pays)) {
      // No page depends on the dictionary yet: drop it for the whole chunk.
      builder.clear();
      out.reset();
      active = false;
      return false;
    }
    used = true;
    active = !overLimit;
    return true;
  }

  /** The entry holding the page's value number {@code value} (nulls hold none). */
  int entryOfValue(PageBuffer page, int value) {
    if (!page.hasDefinitionLevels) {
      return value;
    }
    int seen = 0;
    int entry = 0;
    while (seen < value) {
      if (page.definitionLevels[entry++] == maxDefinitionLevel) {
        seen++;
      }
    }
    return entry;
  }

  /** The PLAIN size of the page's first {@code count} values. */
  private long plainBytes(PageBuffer page, int count) {
    if (type == PhysicalType.BYTE_ARRAY) {
      return 4L * count + page.binaries.offset(count) - page.binaries.offset(0);
    }
    return page.valueBytes() / page.values * count;
  }

  /**
   * A dictionary-encoded page body: the bit width of the page's largest index in one byte, then the
   * indices in the RLE / bit-packing hybrid ({@link HybridRunsEncoder}). Returns its size.
   */
  private int encodeIndices(int[] indices, int n, GrowableBuffer out) {
    int max = 0;
    for (int i = 0; i < n; i++) {
      max = Math.max(max, indices[i]);
    }
    int width = BitPacking.bitWidth(max);
    out.writeByte(width);
    return 1 + new HybridRunsEncoder(width, compressed, false).encode(indices, n, out);
  }

  /** Adds the page's first {@code n} values to the dictionary; their indices to {@code indices}. */
  private void add(PageBuffer page, int n, int[] indices) {
    // Values the trial added are in the dictionary, their indices in place (in the same order,
    // so the dictionary is the one a lookup of every value would build).
    int from = page == trialPage ? Math.min(trialValues, n) : 0;
    int len = n - from;
    switch (type) {
      case INT32 -> builder.addInts(page.ints, from, len, indices, from);
      case INT64 -> builder.addLongs(page.longs, from, len, indices, from);
      case FLOAT -> builder.addFloats(page.floats, from, len, indices, from);
      case DOUBLE -> builder.addDoubles(page.doubles, from, len, indices, from);
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 ->
          builder.addBinaries(page.binaries, from, len, indices, from);
      case BOOLEAN -> throw new IllegalStateException("BOOLEAN columns have no dictionary");
    }
  }
}
