package dev.parquetconnect.format.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.encoding.PlainCodecTest.Column;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.dictionary.DictionaryValuesReader;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.dictionary.PlainValuesDictionary;
import org.junit.jupiter.api.Test;

class DictionaryTest {
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

  // ---- building ----

  @Test
  void indicesFollowFirstAppearance() {
    DictionaryBuilder builder = DictionaryBuilder.forType(PhysicalType.INT32, 0);
    int[] indices = new int[7];
    builder.addInts(new int[] {42, 7, 42, -1, 7, 0, Integer.MIN_VALUE}, 0, 7, indices, 0);
    assertArrayEquals(new int[] {0, 1, 0, 2, 1, 3, 4}, indices);
    assertEquals(5, builder.dictionarySize());
    assertEquals(20, builder.dictionaryByteSize());
    GrowableBuffer page = new GrowableBuffer();
    builder.writeDictionaryPage(page);
    assertArrayEquals(
        new byte[] {42, 0, 0, 0, 7, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, (byte) 0x80},
        page.toByteArray());
  }

  @Test
  void floatsAreKeyedByRawBits() {
    DictionaryBuilder floats = DictionaryBuilder.forType(PhysicalType.FLOAT, 0);
    float otherNaN = Float.intBitsToFloat(0x7FC00001);
    int[] indices = new int[6];
    floats.addFloats(
        new float[] {0.0f, -0.0f, Float.NaN, otherNaN, Float.NaN, -0.0f}, 0, 6, indices, 0);
    assertArrayEquals(new int[] {0, 1, 2, 3, 2, 1}, indices);
    assertEquals(
        Float.floatToRawIntBits(otherNaN),
        Float.floatToRawIntBits(floats.toDictionary().floatAt(3)));

    DictionaryBuilder doubles = DictionaryBuilder.forType(PhysicalType.DOUBLE, 0);
    doubles.addDoubles(new double[] {0.0, -0.0, Double.NaN, 0.0}, 0, 4, indices, 0);
    assertEquals(3, doubles.dictionarySize());
    assertEquals(24, doubles.dictionaryByteSize());
  }

  /**
   * Long texts grow the entries' arrays by doubling, far past the page body: the spare heap is
   * reported while the chunk is open, and a cleared dictionary lets the grown arrays go (a sink
   * keeps a thousand files open and clears their dictionaries at every row group).
   */
  @Test
  void longTextsReportTheirSpareHeapAndClearingLetsItGo() {
    DictionaryBuilder builder = DictionaryBuilder.forType(PhysicalType.BYTE_ARRAY, 0);
    BinaryBatch values = new BinaryBatch();
    Random random = new Random(24);
    for (int i = 0; i < 24; i++) {
      byte[] text = new byte[1500];
      random.nextBytes(text);
      values.add(text);
    }
    builder.addBinaries(values, 0, 24, new int[24], 0);
    assertEquals(24 * (4 + 1500), builder.dictionaryByteSize());
    // The entries' bytes and their per-entry arrays grown past their initial length.
    assertTrue(builder.spareBytes() > 0, "spare " + builder.spareBytes());
    builder.clear();
    assertEquals(0, builder.dictionaryByteSize());
    assertEquals(0, builder.spareBytes());
    assertEquals(0, DictionaryBuilder.forType(PhysicalType.BYTE_ARRAY, 0).spareBytes());
  }

  @Test
  void binaryDictionarySizesAndPage() {
    DictionaryBuilder builder = DictionaryBuilder.forType(PhysicalType.BYTE_ARRAY, 0);
    BinaryBatch values = new BinaryBatch();
    for (String s : new String[] {"ab", "", "ab", "xyz", ""}) {
      values.add(s.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }
    int[] indices = new int[5];
    builder.addBinaries(values, 0, 5, indices, 0);
    assertArrayEquals(new int[] {0, 1, 0, 2, 1}, indices);
    assertEquals(3, builder.dictionarySize());
    assertEquals((4 + 2) + 4 + (4 + 3), builder.dictionaryByteSize());
    GrowableBuffer page = new GrowableBuffer();
    builder.writeDictionaryPage(page);
    assertArrayEquals(
        new byte[] {2, 0, 0, 0, 'a', 'b', 0, 0, 0, 0, 3, 0, 0, 0, 'x', 'y', 'z'},
        page.toByteArray());

    DictionaryBuilder fixed = DictionaryBuilder.forType(PhysicalType.FIXED_LEN_BYTE_ARRAY, 2);
    BinaryBatch wrong = new BinaryBatch();
    wrong.add(new byte[3]);
    assertThrows(IllegalArgumentException.class, () -> fixed.addBinaries(wrong, 0, 1, indices, 0));
    assertThrows(
        IllegalArgumentException.class, () -> DictionaryBuilder.forType(PhysicalType.BOOLEAN, 0));
    assertThrows(
        UnsupportedOperationException.class, () -> builder.addInts(new int[1], 0, 1, indices, 0));
  }

  @Test
  void manyDistinctValuesSurviveRehashing() {
    Random random = new Random(61);
    for (PhysicalType type : DICTIONARY_TYPES) {
      DictionaryBuilder builder = DictionaryBuilder.forType(type, FLBA_LENGTH);
      Column column = Column.random(type, 60_000, random);
      int[] indices = new int[60_000];
      add(builder, column, 0, 60_000, indices);
      // Every index maps back to its value, and equal values share an index.
      column.assertSame(map(builder.toDictionary(), indices, type), type.name());
      Map<Object, Integer> indexOfValue = new HashMap<>();
      for (int i = 0; i < 60_000; i++) {
        Integer first = indexOfValue.putIfAbsent(keyOf(column, i), indices[i]);
        if (first != null) {
          assertEquals(first.intValue(), indices[i], type + " value " + i);
        }
      }
      assertEquals(indexOfValue.size(), builder.dictionarySize(), type.name());
      builder.clear();
      assertEquals(0, builder.dictionarySize());
      assertEquals(0, builder.dictionaryByteSize());
    }
  }

  /**
   * Byte strings of 0 to 40 bytes, where the lookup paths change (below 8 bytes one word, up to 32
   * four key words, longer the bytes): equal values share an index, values that differ only in a
   * trailing zero byte or their length do not, values at the very end of a tightly sized batch (no
   * word readable past them) are found, and a cleared builder does not match the words its former
   * entries left behind.
   */
  @Test
  void byteStringsOfEveryShortLengthAreTheirOwnEntries() {
    Random random = new Random(63);
    BinaryDictionaryBuilder builder =
        (BinaryDictionaryBuilder) DictionaryBuilder.forType(PhysicalType.BYTE_ARRAY, 0);
    for (int round = 0; round < 6; round++) {
      byte[][] distinct = new byte[400][];
      for (int i = 0; i < distinct.length; i++) {
        int length = random.nextInt(41);
        byte[] v = new byte[length];
        for (int k = 0; k < length; k++) {
          v[k] = (byte) (random.nextInt(4) == 0 ? 0 : random.nextInt(3) - 1);
        }
        distinct[i] = v;
      }
      int n = 5000;
      byte[][] values = new byte[n][];
      int bytes = 0;
      for (int i = 0; i < n; i++) {
        values[i] = distinct[random.nextInt(distinct.length)];
        bytes += values[i].length;
      }
      BinaryBatch batch = new BinaryBatch(n, 0);
      batch.ensureCapacity(n, bytes); // exactly: the last values end where the array ends
      for (byte[] v : values) {
        batch.add(v);
      }
      int[] indices = new int[n];
      builder.clear();
      builder.addBinaries(batch, 0, n, indices, 0);
      Map<ByteBuffer, Integer> indexOfValue = new HashMap<>();
      for (int i = 0; i < n; i++) {
        int expected =
            indexOfValue.computeIfAbsent(ByteBuffer.wrap(values[i]), v -> indexOfValue.size());
        assertEquals(expected, indices[i], "round " + round + ", value " + i);
      }
      assertEquals(indexOfValue.size(), builder.dictionarySize());
      dev.parquetconnect.format.encoding.Dictionary dictionary = builder.toDictionary();
      for (int i = 0; i < n; i++) {
        assertArrayEquals(
            values[i], dictionary.binaryAt(indices[i]), "round " + round + ", value " + i);
      }
    }
  }

  // ---- full round trips: builder -> pages -> Dictionary + DictionaryDecoder ----

  @Test
  void roundTripEveryTypeLengthAndCardinality() throws ParquetException {
    Random random = new Random(62);
    for (PhysicalType type : DICTIONARY_TYPES) {
      for (int length : TestValues.LENGTHS) {
        for (int cardinality : new int[] {1, 2, 9, 300, 100_000}) {
          Column column = lowCardinality(Column.random(type, length, random), cardinality, random);
          DictionaryBuilder builder = DictionaryBuilder.forType(type, FLBA_LENGTH);
          DictionaryIndicesEncoder encoder = new DictionaryIndicesEncoder(Encoding.RLE_DICTIONARY);
          int[] indices = new int[length];
          for (int at = 0; at < length; ) {
            int n = TestValues.nextBatch(random, length - at);
            add(builder, column, at, n, indices);
            encoder.writeInts(indices, at, n);
            at += n;
          }
          long estimate = encoder.estimatedSize();
          byte[] dataPage = TestValues.flush(encoder);
          String what = type + " length " + length + " cardinality " + cardinality;
          assertEquals(dataPage.length, estimate, what + ": estimated size");
          GrowableBuffer dictPage = new GrowableBuffer();
          builder.writeDictionaryPage(dictPage);
          assertEquals(builder.dictionaryByteSize(), dictPage.size(), what);

          byte[] dictBytes = TestValues.embed(dictPage.toByteArray(), 1, 2, random);
          dev.parquetconnect.format.encoding.Dictionary dictionary =
              dev.parquetconnect.format.encoding.Dictionary.decode(
                  type, FLBA_LENGTH, dictBytes, 1, dictPage.size(), builder.dictionarySize());
          assertEquals(builder.dictionarySize(), dictionary.size());
          DictionaryDecoder decoder = new DictionaryDecoder(dictionary);
          byte[] page = TestValues.embed(dataPage, 3, 3, random);
          decoder.init(page, 3, dataPage.length, length);
          column.assertSame(Column.read(decoder, type, length, random), what);
        }
      }
    }
  }

  @Test
  void indicesPageStartsWithTheWidthOfTheLargestIndex() {
    DictionaryIndicesEncoder encoder = new DictionaryIndicesEncoder(Encoding.PLAIN_DICTIONARY);
    assertEquals(Encoding.PLAIN_DICTIONARY, encoder.encoding());
    encoder.writeInts(new int[] {0, 5, 2}, 0, 3);
    assertEquals(3, encoder.bitWidth());
    byte[] page = TestValues.flush(encoder);
    assertEquals(3, page[0]);
    // An empty page still carries its width byte, 0.
    assertArrayEquals(new byte[] {0}, TestValues.flush(encoder));
    assertThrows(IllegalArgumentException.class, () -> encoder.writeInts(new int[] {-1}, 0, 1));
    assertThrows(
        IllegalArgumentException.class, () -> new DictionaryIndicesEncoder(Encoding.PLAIN));
  }

  @Test
  void booleanDictionaryPagesDecode() throws ParquetException {
    // Writers never build them, but a PLAIN page of booleans is a valid dictionary to read.
    byte[] page = {0b01}; // [true, false]
    dev.parquetconnect.format.encoding.Dictionary dictionary =
        dev.parquetconnect.format.encoding.Dictionary.decode(
            PhysicalType.BOOLEAN, 0, page, 0, 1, 2);
    assertEquals(2, dictionary.size());
    DictionaryDecoder decoder = new DictionaryDecoder(dictionary);
    byte[] indices = {1, 0x03, (byte) 0b10110010};
    decoder.init(indices, 0, indices.length, 8);
    boolean[] values = new boolean[8];
    decoder.readBooleans(values, 0, 8);
    assertArrayEquals(new boolean[] {true, false, true, true, false, false, true, false}, values);
  }

  // ---- corrupt input ----

  @Test
  void indexPastTheDictionaryIsCorrupt() throws ParquetException {
    dev.parquetconnect.format.encoding.Dictionary dictionary = intDictionary(10, 20, 30);
    DictionaryDecoder decoder = new DictionaryDecoder(dictionary);
    // width 2, an RLE run of eight 3s: index 3 of a 3-entry dictionary.
    byte[] page = {2, 0x10, 0x03};
    decoder.init(page, 0, page.length, 8);
    CorruptDataException e =
        assertThrows(CorruptDataException.class, () -> decoder.readInts(new int[8], 0, 8));
    assertTrue(
        e.getMessage()
            .contains("dictionary index 3 of value 0 is out of range for a dictionary of 3"),
        e.getMessage());
  }

  @Test
  void widthZeroMeansEveryIndexIsZero() throws ParquetException {
    // bad_data/ARROW-GH-43605 in parquet-testing: width 0 over a one-entry dictionary is valid.
    DictionaryDecoder decoder = new DictionaryDecoder(intDictionary(77));
    int[] values = new int[21_186];
    decoder.init(new byte[] {0}, 0, 1, values.length);
    decoder.readInts(values, 0, values.length);
    for (int v : values) {
      assertEquals(77, v);
    }
    // With runs present (a writer that writes them anyway) the result is the same.
    decoder.init(new byte[] {0, (byte) 0xC0, (byte) 0xB8, 0x02}, 0, 4, 20_000);
    decoder.skip(10);
    decoder.readInts(values, 0, 100);
    assertEquals(77, values[99]);
    // But a width-0 page over an empty dictionary has nothing to point to.
    DictionaryDecoder empty = new DictionaryDecoder(intDictionary());
    empty.init(new byte[] {0}, 0, 1, 1);
    assertThrows(CorruptDataException.class, () -> empty.readInts(new int[1], 0, 1));
  }

  @Test
  void badDictionaryPagesAndWidthsAreCorrupt() throws ParquetException {
    byte[] eight = new byte[8];
    assertThrows(
        CorruptDataException.class,
        () ->
            dev.parquetconnect.format.encoding.Dictionary.decode(
                PhysicalType.INT32, 0, eight, 0, 8, 3));
    assertThrows(
        CorruptDataException.class,
        () ->
            dev.parquetconnect.format.encoding.Dictionary.decode(
                PhysicalType.INT32, 0, eight, 0, 8, -1));
    // Two billion BYTE_ARRAY entries claimed by an 8-byte page: refused before allocating.
    assertThrows(
        CorruptDataException.class,
        () ->
            dev.parquetconnect.format.encoding.Dictionary.decode(
                PhysicalType.BYTE_ARRAY, 0, eight, 0, 8, 2_000_000_000));
    assertThrows(
        CorruptDataException.class,
        () ->
            dev.parquetconnect.format.encoding.Dictionary.decode(
                PhysicalType.FIXED_LEN_BYTE_ARRAY, -4, eight, 0, 8, 1));
    DictionaryDecoder decoder = new DictionaryDecoder(intDictionary(1, 2));
    assertThrows(CorruptDataException.class, () -> decoder.init(new byte[] {33, 0}, 0, 2, 1));
    decoder.init(new byte[0], 0, 0, 0);
    decoder.readInts(new int[0], 0, 0);
    decoder.init(new byte[0], 0, 0, 1);
    assertThrows(CorruptDataException.class, () -> decoder.readInts(new int[1], 0, 1));
    decoder.init(new byte[] {1, 0x10, 0x01}, 0, 3, 8);
    assertThrows(UnsupportedFeatureException.class, () -> decoder.readLongs(new long[8], 0, 8));
    assertThrows(CorruptDataException.class, () -> decoder.readInts(new int[9], 0, 9));
  }

  // ---- parquet-java as the oracle ----

  @Test
  void parquetJavaBothWays() throws IOException, ParquetException {
    Random random = new Random(63);
    for (int seed = 0; seed < 3; seed++) {
      for (PhysicalType type : DICTIONARY_TYPES) {
        for (int cardinality : new int[] {1, 2, 5, 40, 1000, 70_000}) {
          int length = 1 + random.nextInt(seed == 0 ? 300 : 5000);
          // parquet-java keys floats by floatToIntBits and writes them canonically: no NaN
          // payloads.
          Column column =
              lowCardinality(Column.random(type, length, random), cardinality, random)
                  .canonicalNaN();
          String what = type + " cardinality " + cardinality + " length " + length;

          // Theirs -> ours.
          DictionaryValuesWriter writer = parquetJavaWriter(type);
          column.writeTo(writer);
          byte[] theirData = ParquetJava.bytes(writer);
          DictionaryPage theirDict = writer.toDictPageAndClose();
          byte[] theirDictBytes = ParquetJava.bytes(theirDict.getBytes());
          dev.parquetconnect.format.encoding.Dictionary ours =
              dev.parquetconnect.format.encoding.Dictionary.decode(
                  type,
                  FLBA_LENGTH,
                  theirDictBytes,
                  0,
                  theirDictBytes.length,
                  theirDict.getDictionarySize());
          DictionaryDecoder decoder = new DictionaryDecoder(ours);
          decoder.init(theirData, 0, theirData.length, length);
          column.assertSame(
              Column.read(decoder, type, length, random), what + " ours reading theirs");

          // Ours -> theirs; both assign indices by first appearance, so the pages match.
          DictionaryBuilder builder = DictionaryBuilder.forType(type, FLBA_LENGTH);
          int[] indices = new int[length];
          add(builder, column, 0, length, indices);
          DictionaryIndicesEncoder encoder = new DictionaryIndicesEncoder(Encoding.RLE_DICTIONARY);
          encoder.writeInts(indices, 0, length);
          byte[] ourData = TestValues.flush(encoder);
          GrowableBuffer ourDict = new GrowableBuffer();
          builder.writeDictionaryPage(ourDict);
          assertArrayEquals(theirDictBytes, ourDict.toByteArray(), what + " dictionary page");
          Dictionary theirs =
              parquetJavaDictionary(type, ourDict.toByteArray(), builder.dictionarySize());
          DictionaryValuesReader reader = new DictionaryValuesReader(theirs);
          reader.initFromPage(length, ParquetJava.stream(ourData));
          column.assertSame(Column.readFrom(reader, type, length), what + " theirs reading ours");
        }
      }
    }
  }

  private static DictionaryValuesWriter parquetJavaWriter(PhysicalType type) {
    int max = Integer.MAX_VALUE;
    org.apache.parquet.column.Encoding data = org.apache.parquet.column.Encoding.RLE_DICTIONARY;
    org.apache.parquet.column.Encoding dict = org.apache.parquet.column.Encoding.PLAIN;
    return switch (type) {
      case INT32 ->
          new DictionaryValuesWriter.PlainIntegerDictionaryValuesWriter(
              max, data, dict, ParquetJava.HEAP);
      case INT64 ->
          new DictionaryValuesWriter.PlainLongDictionaryValuesWriter(
              max, data, dict, ParquetJava.HEAP);
      case FLOAT ->
          new DictionaryValuesWriter.PlainFloatDictionaryValuesWriter(
              max, data, dict, ParquetJava.HEAP);
      case DOUBLE ->
          new DictionaryValuesWriter.PlainDoubleDictionaryValuesWriter(
              max, data, dict, ParquetJava.HEAP);
      case BYTE_ARRAY ->
          new DictionaryValuesWriter.PlainBinaryDictionaryValuesWriter(
              max, data, dict, ParquetJava.HEAP);
      case FIXED_LEN_BYTE_ARRAY ->
          new DictionaryValuesWriter.PlainFixedLenArrayDictionaryValuesWriter(
              max, FLBA_LENGTH, data, dict, ParquetJava.HEAP);
      case INT96 ->
          new DictionaryValuesWriter.PlainFixedLenArrayDictionaryValuesWriter(
              max, 12, data, dict, ParquetJava.HEAP);
      case BOOLEAN -> throw new IllegalArgumentException("no BOOLEAN dictionaries");
    };
  }

  private static Dictionary parquetJavaDictionary(PhysicalType type, byte[] page, int size)
      throws IOException {
    DictionaryPage dictPage =
        new DictionaryPage(BytesInput.from(page), size, org.apache.parquet.column.Encoding.PLAIN);
    return switch (type) {
      case INT32 -> new PlainValuesDictionary.PlainIntegerDictionary(dictPage);
      case INT64 -> new PlainValuesDictionary.PlainLongDictionary(dictPage);
      case FLOAT -> new PlainValuesDictionary.PlainFloatDictionary(dictPage);
      case DOUBLE -> new PlainValuesDictionary.PlainDoubleDictionary(dictPage);
      case BYTE_ARRAY -> new PlainValuesDictionary.PlainBinaryDictionary(dictPage);
      case FIXED_LEN_BYTE_ARRAY ->
          new PlainValuesDictionary.PlainBinaryDictionary(dictPage, FLBA_LENGTH);
      case INT96 -> new PlainValuesDictionary.PlainBinaryDictionary(dictPage, 12);
      case BOOLEAN -> throw new IllegalArgumentException("no BOOLEAN dictionaries");
    };
  }

  // ---- helpers ----

  private static dev.parquetconnect.format.encoding.Dictionary intDictionary(int... values)
      throws CorruptDataException {
    PlainEncoder encoder = new PlainEncoder(PhysicalType.INT32);
    encoder.writeInts(values, 0, values.length);
    byte[] page = TestValues.flush(encoder);
    return dev.parquetconnect.format.encoding.Dictionary.decode(
        PhysicalType.INT32, 0, page, 0, page.length, values.length);
  }

  /** Replaces each value by one of the first {@code cardinality} values, in runs or at random. */
  private static Column lowCardinality(Column column, int cardinality, Random random) {
    int distinct = Math.max(1, Math.min(cardinality, column.length));
    int[] pick = new int[column.length];
    boolean runs = random.nextBoolean();
    for (int i = 0; i < column.length; i++) {
      pick[i] = runs && i > 0 && random.nextInt(10) != 0 ? pick[i - 1] : random.nextInt(distinct);
    }
    Column picked = column.slice(0, column.length);
    for (int i = 0; i < column.length; i++) {
      int from = pick[i];
      switch (column.type) {
        case INT32 -> picked.ints[i] = column.ints[from];
        case INT64 -> picked.longs[i] = column.longs[from];
        case FLOAT -> picked.floats[i] = column.floats[from];
        case DOUBLE -> picked.doubles[i] = column.doubles[from];
        default -> {}
      }
    }
    if (column.binaries != null) {
      picked.binaries = new BinaryBatch();
      for (int i = 0; i < column.length; i++) {
        picked.binaries.add(column.binaries.get(pick[i]));
      }
    }
    return picked;
  }

  private static void add(
      DictionaryBuilder builder, Column column, int from, int n, int[] indices) {
    switch (column.type) {
      case INT32 -> builder.addInts(column.ints, from, n, indices, from);
      case INT64 -> builder.addLongs(column.longs, from, n, indices, from);
      case FLOAT -> builder.addFloats(column.floats, from, n, indices, from);
      case DOUBLE -> builder.addDoubles(column.doubles, from, n, indices, from);
      default -> builder.addBinaries(column.binaries, from, n, indices, from);
    }
  }

  /** The values the indices point to, through the dictionary's accessors. */
  private static Column map(
      dev.parquetconnect.format.encoding.Dictionary dictionary, int[] indices, PhysicalType type) {
    PlainEncoder encoder = new PlainEncoder(type, FLBA_LENGTH);
    BinaryBatch binaries = new BinaryBatch();
    for (int index : indices) {
      switch (type) {
        case INT32 -> encoder.writeInts(new int[] {dictionary.intAt(index)}, 0, 1);
        case INT64 -> encoder.writeLongs(new long[] {dictionary.longAt(index)}, 0, 1);
        case FLOAT -> encoder.writeFloats(new float[] {dictionary.floatAt(index)}, 0, 1);
        case DOUBLE -> encoder.writeDoubles(new double[] {dictionary.doubleAt(index)}, 0, 1);
        default -> binaries.add(dictionary.binaryAt(index));
      }
    }
    if (binaries.count() > 0) {
      encoder.writeBinaries(binaries, 0, binaries.count());
    }
    byte[] bytes = TestValues.flush(encoder);
    try {
      PlainDecoder decoder = new PlainDecoder(type, FLBA_LENGTH);
      decoder.init(bytes, 0, bytes.length, indices.length);
      return Column.read(decoder, type, indices.length, new Random(0));
    } catch (ParquetException e) {
      throw new AssertionError(e);
    }
  }

  /** A key equal for bit-identical values only. */
  private static Object keyOf(Column column, int i) {
    return switch (column.type) {
      case INT32 -> column.ints[i];
      case INT64 -> column.longs[i];
      case FLOAT -> Float.floatToRawIntBits(column.floats[i]);
      case DOUBLE -> Double.doubleToRawLongBits(column.doubles[i]);
      default -> ByteBuffer.wrap(column.binaries.get(i));
    };
  }

  @Test
  void distinctValuesGetDistinctIndices() {
    DictionaryBuilder builder = DictionaryBuilder.forType(PhysicalType.INT64, 0);
    long[] values = new long[5000];
    for (int i = 0; i < values.length; i++) {
      values[i] = (long) i << 32; // equal low bits: a weak hash would collide them all
    }
    int[] indices = new int[values.length];
    builder.addLongs(values, 0, values.length, indices, 0);
    for (int i = 0; i < values.length; i++) {
      assertEquals(i, indices[i]);
    }
    assertNotEquals(0, builder.dictionarySize());
  }

  @Test
  void binaryValuesDifferingInOneByteAreDistinctAtEveryLength() throws ParquetException {
    // Every length around the word-keyed lookup's bounds (8, 16, 32), each value also in
    // variants that differ from it in exactly one byte, at every position.
    BinaryBatch values = new BinaryBatch();
    Random random = new Random(5);
    for (int length = 0; length <= 41; length++) {
      byte[] base = new byte[length];
      random.nextBytes(base);
      values.add(base);
      for (int at = 0; at < length; at++) {
        byte[] variant = base.clone();
        variant[at] ^= (byte) (1 << random.nextInt(8));
        values.add(variant);
      }
    }
    int n = values.count();
    // Inside a larger array, so that word reads past a value's end would see other bytes.
    BinaryBatch padded = new BinaryBatch();
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < n; i++) {
        padded.add(values.get(i));
      }
    }
    DictionaryBuilder builder = DictionaryBuilder.forType(PhysicalType.BYTE_ARRAY, 0);
    int[] indices = new int[2 * n];
    builder.addBinaries(padded, 0, 2 * n, indices, 0);
    assertEquals(n, builder.dictionarySize());
    for (int i = 0; i < n; i++) {
      assertEquals(i, indices[i]);
      assertEquals(i, indices[n + i]);
    }
    dev.parquetconnect.format.encoding.Dictionary dictionary = builder.toDictionary();
    for (int i = 0; i < n; i++) {
      assertArrayEquals(values.get(i), dictionary.binaryAt(i));
    }
  }
}
