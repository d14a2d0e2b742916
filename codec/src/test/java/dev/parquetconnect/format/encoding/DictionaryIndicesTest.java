package dev.parquetconnect.format.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.encoding.PlainCodecTest.Column;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The late-materialisation path: {@link DictionaryDecoder#readIndices} and {@link
 * DictionaryBinaryBatch}, against the indices the writer's builder assigned and against the copying
 * path ({@link DictionaryDecoder#readBinaries}); indices checked once per batch.
 */
class DictionaryIndicesTest {
  private static final int FLBA_LENGTH = 5;
  private static final PhysicalType[] DICTIONARY_TYPES = {
    PhysicalType.INT32,
    PhysicalType.INT64,
    PhysicalType.FLOAT,
    PhysicalType.DOUBLE,
    PhysicalType.BYTE_ARRAY,
    PhysicalType.FIXED_LEN_BYTE_ARRAY,
    PhysicalType.INT96
  };

  /** One chunk's pages as the writer makes them, and the indices it assigned. */
  private record Encoded(Dictionary dictionary, byte[] dataPage, int[] indices, Column column) {}

  private static Encoded encode(Column column) throws ParquetException {
    DictionaryBuilder builder = DictionaryBuilder.forType(column.type, FLBA_LENGTH);
    int n = column.length;
    int[] indices = new int[n];
    switch (column.type) {
      case INT32 -> builder.addInts(column.ints, 0, n, indices, 0);
      case INT64 -> builder.addLongs(column.longs, 0, n, indices, 0);
      case FLOAT -> builder.addFloats(column.floats, 0, n, indices, 0);
      case DOUBLE -> builder.addDoubles(column.doubles, 0, n, indices, 0);
      default -> builder.addBinaries(column.binaries, 0, n, indices, 0);
    }
    DictionaryIndicesEncoder encoder = new DictionaryIndicesEncoder(Encoding.RLE_DICTIONARY);
    encoder.writeInts(indices, 0, n);
    byte[] dataPage = TestValues.flush(encoder);
    GrowableBuffer dictPage = new GrowableBuffer();
    builder.writeDictionaryPage(dictPage);
    byte[] dict = dictPage.toByteArray();
    Dictionary dictionary =
        Dictionary.decode(column.type, FLBA_LENGTH, dict, 0, dict.length, builder.dictionarySize());
    return new Encoded(dictionary, dataPage, indices, column);
  }

  /** A column of {@code length} values drawn from {@code cardinality} random ones. */
  private static Column column(PhysicalType type, int length, int cardinality, Random random) {
    Column distinct = Column.random(type, Math.max(1, cardinality), random);
    Column out = Column.random(type, length, random);
    for (int i = 0; i < length; i++) {
      int from = random.nextInt(distinct.length);
      switch (type) {
        case INT32 -> out.ints[i] = distinct.ints[from];
        case INT64 -> out.longs[i] = distinct.longs[from];
        case FLOAT -> out.floats[i] = distinct.floats[from];
        case DOUBLE -> out.doubles[i] = distinct.doubles[from];
        default -> {}
      }
    }
    if (distinct.binaries != null) {
      out.binaries = new BinaryBatch();
      for (int i = 0; i < length; i++) {
        out.binaries.add(distinct.binaries.get(random.nextInt(distinct.length)));
      }
    }
    return out;
  }

  @Test
  void indicesRoundTripForEveryDictionaryType() throws ParquetException {
    Random random = new Random(71);
    for (PhysicalType type : DICTIONARY_TYPES) {
      for (int length : new int[] {0, 1, 9, 1000, 20_000}) {
        for (int cardinality : new int[] {1, 2, 300, 5000}) {
          Encoded e = encode(column(type, length, cardinality, random));
          String what = type + " length " + length + " cardinality " + cardinality;
          DictionaryDecoder decoder = new DictionaryDecoder(e.dictionary());
          decoder.init(e.dataPage(), 0, e.dataPage().length, length);
          int[] got = new int[length + 3];
          for (int at = 0; at < length; ) {
            int n = TestValues.nextBatch(random, length - at);
            decoder.readIndices(got, at + 3, n);
            at += n;
          }
          assertArrayEquals(e.indices(), Arrays.copyOfRange(got, 3, length + 3), what);
        }
      }
    }
  }

  @Test
  void binaryBatchesMatchTheCopyingPath() throws ParquetException {
    Random random = new Random(72);
    for (PhysicalType type :
        new PhysicalType[] {
          PhysicalType.BYTE_ARRAY, PhysicalType.FIXED_LEN_BYTE_ARRAY, PhysicalType.INT96
        }) {
      for (int cardinality : new int[] {1, 7, 300, 4000}) {
        int length = 9000;
        Encoded e = encode(column(type, length, cardinality, random));
        String what = type + " cardinality " + cardinality;
        DictionaryDecoder copying = new DictionaryDecoder(e.dictionary());
        copying.init(e.dataPage(), 0, e.dataPage().length, length);
        BinaryBatch copies = new BinaryBatch();
        copying.readBinaries(copies, length);

        DictionaryDecoder decoder = new DictionaryDecoder(e.dictionary());
        decoder.init(e.dataPage(), 0, e.dataPage().length, length);
        DictionaryBinaryBatch batch = new DictionaryBinaryBatch(16);
        BinaryBatch materialized = new BinaryBatch();
        for (int at = 0; at < length; ) {
          int n = TestValues.nextBatch(random, length - at);
          batch.clear();
          decoder.readIndices(batch, n);
          assertEquals(n, batch.count(), what);
          assertSame(e.dictionary(), batch.dictionary());
          for (int i = 0; i < n; i++) {
            byte[] expected = copies.get(at + i);
            assertEquals(e.indices()[at + i], batch.index(i), what);
            assertArrayEquals(expected, batch.get(i), what);
            assertArrayEquals(
                expected,
                Arrays.copyOfRange(
                    batch.data(), batch.offset(i), batch.offset(i) + batch.length(i)),
                what);
            assertEquals(Arrays.hashCode(expected), batch.valueHash(i), what);
            assertEquals(new String(expected, StandardCharsets.UTF_8), batch.string(i), what);
            int j = random.nextInt(n);
            assertEquals(
                Arrays.equals(expected, copies.get(at + j)), batch.valueEquals(i, j), what);
          }
          batch.materialize(materialized);
          at += n;
        }
        assertEquals(length, materialized.count(), what);
        assertArrayEquals(
            Arrays.copyOf(copies.offsets(), length + 1),
            Arrays.copyOf(materialized.offsets(), length + 1),
            what);
        assertArrayEquals(
            Arrays.copyOf(copies.data(), copies.byteSize()),
            Arrays.copyOf(materialized.data(), materialized.byteSize()),
            what);
      }
    }
  }

  @Test
  void entriesLongerThanTheWordPathAndEveryLengthMaterialise() throws ParquetException {
    // Entries of 0..80 bytes: some dictionaries take the four-word path (all <= 32), others not.
    Random random = new Random(73);
    for (int maxLength : new int[] {0, 8, 31, 32, 33, 80}) {
      BinaryBatch entries = new BinaryBatch();
      for (int i = 0; i <= maxLength; i++) {
        byte[] b = new byte[i];
        random.nextBytes(b);
        entries.add(b);
      }
      Dictionary dictionary = Dictionary.ofBinaries(PhysicalType.BYTE_ARRAY, entries);
      int[] indices = new int[500];
      for (int i = 0; i < indices.length; i++) {
        indices[i] = random.nextInt(entries.count());
      }
      DictionaryDecoder decoder = new DictionaryDecoder(dictionary);
      byte[] page = indicesPage(32 - Integer.numberOfLeadingZeros(maxLength), indices);
      decoder.init(page, 0, page.length, indices.length);
      DictionaryBinaryBatch batch = new DictionaryBinaryBatch(1);
      decoder.readIndices(batch, indices.length);
      BinaryBatch out = new BinaryBatch(1, 16);
      out.add(new byte[] {9, 9, 9}); // materialize appends
      batch.materialize(100, 400, out);
      assertEquals(401, out.count());
      assertArrayEquals(new byte[] {9, 9, 9}, out.get(0));
      for (int i = 0; i < 400; i++) {
        assertArrayEquals(entries.get(indices[100 + i]), out.get(1 + i), "max " + maxLength);
      }
      assertThrows(IndexOutOfBoundsException.class, () -> batch.materialize(400, 101, out));
    }
  }

  @Test
  void equalEntriesAtDifferentIndicesAreEqualValues() throws ParquetException {
    // Nothing stops a file from repeating an entry: equality must not rely on the index alone.
    BinaryBatch entries = new BinaryBatch();
    for (String s : new String[] {"abc", "xyz", "abc"}) {
      entries.add(s.getBytes(StandardCharsets.UTF_8));
    }
    Dictionary dictionary = Dictionary.ofBinaries(PhysicalType.BYTE_ARRAY, entries);
    DictionaryDecoder decoder = new DictionaryDecoder(dictionary);
    byte[] page = indicesPage(2, new int[] {0, 1, 2, 0});
    decoder.init(page, 0, page.length, 4);
    DictionaryBinaryBatch batch = new DictionaryBinaryBatch(4);
    decoder.readIndices(batch, 4);
    assertTrue(batch.valueEquals(0, 2));
    assertTrue(batch.valueEquals(0, 3));
    assertFalse(batch.valueEquals(0, 1));
    assertEquals(batch.valueHash(0), batch.valueHash(2));
    assertSame(batch.string(0), batch.string(3), "one String per dictionary entry");
  }

  // ---- the once-per-batch check ----

  @Test
  void indicesWhoseOrPassesTheSizeButNotTheirMaxAreAccepted() throws ParquetException {
    // 512 | 488 = 1000: an OR alone would reject this valid page of a 1000-entry dictionary.
    Dictionary dictionary = intDictionary(1000);
    int[] indices = {512, 488, 999, 0, 512, 488, 7, 998, 1, 2, 3, 4, 5, 6, 7, 8};
    DictionaryDecoder decoder = new DictionaryDecoder(dictionary);
    byte[] page = indicesPage(10, indices);
    decoder.init(page, 0, page.length, indices.length);
    int[] got = new int[indices.length];
    decoder.readIndices(got, 0, indices.length);
    assertArrayEquals(indices, got);
  }

  @Test
  void anIndexPastTheDictionaryIsCorruptWhereverItIs() throws ParquetException {
    Random random = new Random(74);
    for (int size : new int[] {1, 5, 8, 1000, 1024}) {
      int width = 32 - Integer.numberOfLeadingZeros(size); // wide enough to express index size
      for (int trial = 0; trial < 20; trial++) {
        int[] indices = new int[1 + random.nextInt(3000)];
        for (int i = 0; i < indices.length; i++) {
          indices[i] = random.nextInt(size);
        }
        int bad = random.nextInt(indices.length);
        int badIndex = size + random.nextInt((1 << width) - size);
        indices[bad] = badIndex;
        int split = random.nextInt(indices.length + 1);
        byte[] page = indicesPage(width, indices);
        String expected =
            "dictionary index "
                + badIndex
                + " of value "
                + bad
                + " is out of range for a dictionary of "
                + size
                + " entries";

        DictionaryDecoder decoder = new DictionaryDecoder(intDictionary(size));
        decoder.init(page, 0, page.length, indices.length);
        int[] got = new int[indices.length];
        CorruptDataException e =
            assertThrows(
                CorruptDataException.class,
                () -> {
                  decoder.readIndices(got, 0, split);
                  decoder.readIndices(got, split, indices.length - split);
                });
        assertTrue(e.getMessage().contains(expected), e.getMessage());

        DictionaryDecoder binaries = new DictionaryDecoder(binaryDictionary(size));
        binaries.init(page, 0, page.length, indices.length);
        DictionaryBinaryBatch batch = new DictionaryBinaryBatch(8);
        e =
            assertThrows(
                CorruptDataException.class,
                () -> {
                  binaries.readIndices(batch, split);
                  binaries.readIndices(batch, indices.length - split);
                });
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        // The failing call added nothing.
        assertEquals(bad < split ? 0 : split, batch.count());

        DictionaryDecoder copying = new DictionaryDecoder(binaryDictionary(size));
        copying.init(page, 0, page.length, indices.length);
        BinaryBatch copies = new BinaryBatch();
        e =
            assertThrows(
                CorruptDataException.class, () -> copying.readBinaries(copies, indices.length));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
      }
    }
  }

  @Test
  void negativeIndicesOfWidth32AreCorrupt() throws ParquetException {
    byte[] page = indicesPage(32, new int[] {0, 1, -1, 2});
    DictionaryDecoder decoder = new DictionaryDecoder(binaryDictionary(3));
    decoder.init(page, 0, page.length, 4);
    CorruptDataException e =
        assertThrows(CorruptDataException.class, () -> decoder.readIndices(new int[4], 0, 4));
    assertTrue(e.getMessage().contains("dictionary index 4294967295 of value 2"), e.getMessage());
  }

  @Test
  void widthZeroAndEmptyPages() throws ParquetException {
    DictionaryDecoder one = new DictionaryDecoder(binaryDictionary(1));
    one.init(new byte[] {0}, 0, 1, 5000);
    DictionaryBinaryBatch batch = new DictionaryBinaryBatch(1);
    one.readIndices(batch, 5000);
    assertEquals(5000, batch.count());
    assertEquals(0, batch.index(4999));
    DictionaryDecoder empty = new DictionaryDecoder(binaryDictionary(0));
    empty.init(new byte[] {0}, 0, 1, 1);
    assertThrows(CorruptDataException.class, () -> empty.readIndices(new int[1], 0, 1));
    // A page without bytes holds no values: reading none is fine, reading one is not.
    DictionaryDecoder none = new DictionaryDecoder(binaryDictionary(2));
    none.init(new byte[0], 0, 0, 1);
    none.readIndices(new int[0], 0, 0);
    assertThrows(CorruptDataException.class, () -> none.readIndices(new int[1], 0, 1));
    // More than the page holds.
    DictionaryDecoder short1 = new DictionaryDecoder(binaryDictionary(2));
    short1.init(indicesPage(1, new int[] {1, 0}), 0, 3, 2);
    assertThrows(CorruptDataException.class, () -> short1.readIndices(new int[3], 0, 3));
    assertThrows(IndexOutOfBoundsException.class, () -> short1.readIndices(new int[1], 0, 2));
  }

  @Test
  void aBatchKeepsOneDictionaryAndOnlyBinaryDictionariesFillIt() throws ParquetException {
    byte[] page = indicesPage(1, new int[] {1, 0, 1, 1});
    DictionaryDecoder first = new DictionaryDecoder(binaryDictionary(2));
    first.init(page, 0, page.length, 4);
    DictionaryBinaryBatch batch = new DictionaryBinaryBatch(2);
    first.readIndices(batch, 2);
    DictionaryDecoder second = new DictionaryDecoder(binaryDictionary(2));
    second.init(page, 0, page.length, 4);
    assertThrows(IllegalStateException.class, () -> second.readIndices(batch, 2));
    batch.clear();
    second.readIndices(batch, 2);
    assertSame(second.dictionary(), batch.dictionary());
    DictionaryDecoder ints = new DictionaryDecoder(intDictionary(2));
    ints.init(page, 0, page.length, 4);
    assertThrows(UnsupportedFeatureException.class, () -> ints.readIndices(batch, 1));
  }

  // ---- helpers ----

  /** A data page: the width byte, then the indices in the RLE hybrid at that width. */
  static byte[] indicesPage(int width, int[] indices) {
    RleBitPackedHybridEncoder encoder = new RleBitPackedHybridEncoder(width, false);
    encoder.writeInts(indices, 0, indices.length);
    byte[] runs = TestValues.flush(encoder);
    byte[] page = new byte[runs.length + 1];
    page[0] = (byte) width;
    System.arraycopy(runs, 0, page, 1, runs.length);
    return page;
  }

  private static Dictionary intDictionary(int size) {
    int[] values = new int[size];
    for (int i = 0; i < size; i++) {
      values[i] = i * 10;
    }
    return Dictionary.ofInts(PhysicalType.INT32, values);
  }

  private static Dictionary binaryDictionary(int size) {
    BinaryBatch entries = new BinaryBatch();
    for (int i = 0; i < size; i++) {
      entries.add(("entry-" + i).getBytes(StandardCharsets.UTF_8));
    }
    return Dictionary.ofBinaries(PhysicalType.BYTE_ARRAY, entries);
  }
}
