package dev.parquetconnect.format.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.io.ByteReader;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DeltaBinaryPackedTest {
  /** Block configurations: {block size, miniblocks}. */
  static final int[][] CONFIGS = {
    {128, 4}, {128, 1}, {128, 2}, {256, 8}, {256, 2}, {512, 16}, {1024, 4}
  };

  static final int[] LENGTHS = {
    0, 1, 2, 7, 8, 9, 31, 32, 33, 127, 128, 129, 255, 256, 257, 1023, 1024, 1025, 3000
  };

  static byte[] encodeInts(int[] values, int blockSize, int miniblocks) {
    DeltaBinaryPackedEncoder encoder =
        new DeltaBinaryPackedEncoder(PhysicalType.INT32, blockSize, miniblocks);
    encoder.writeInts(values, 0, values.length);
    return flush(encoder, values.length);
  }

  static byte[] encodeLongs(long[] values, int blockSize, int miniblocks) {
    DeltaBinaryPackedEncoder encoder =
        new DeltaBinaryPackedEncoder(PhysicalType.INT64, blockSize, miniblocks);
    encoder.writeLongs(values, 0, values.length);
    return flush(encoder, values.length);
  }

  private static byte[] flush(DeltaBinaryPackedEncoder encoder, int count) {
    assertEquals(count, encoder.valueCount());
    long estimate = encoder.estimatedSize();
    GrowableBuffer out = new GrowableBuffer();
    encoder.flushTo(out);
    assertTrue(out.size() <= estimate, "estimate " + estimate + " below " + out.size());
    assertEquals(0, encoder.valueCount());
    return out.toByteArray();
  }

  static int[] decodeInts(byte[] page, int count) throws ParquetException {
    DeltaBinaryPackedDecoder decoder = new DeltaBinaryPackedDecoder();
    decoder.init(page, 0, page.length, count);
    assertEquals(count, decoder.valueCount());
    assertEquals(page.length, decoder.endOffset());
    int[] out = new int[count];
    decoder.readInts(out, 0, count);
    return out;
  }

  static long[] decodeLongs(byte[] page, int count) throws ParquetException {
    DeltaBinaryPackedDecoder decoder = new DeltaBinaryPackedDecoder();
    decoder.init(page, 0, page.length, count);
    assertEquals(count, decoder.valueCount());
    assertEquals(page.length, decoder.endOffset());
    long[] out = new long[count];
    decoder.readLongs(out, 0, count);
    return out;
  }

  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }

  @Test
  void specExample1() throws ParquetException {
    // 1, 2, 3, 4, 5: deltas all 1, so min delta 1 and bit width 0 (no miniblock data). The spec
    // uses block size 8 for brevity; with a valid 128/4 configuration the bytes are:
    byte[] expected =
        bytes(
            0x80, 0x01, // block size 128
            0x04, // 4 miniblocks
            0x05, // 5 values
            0x02, // first value 1, zigzag
            0x02, // min delta 1, zigzag
            0, 0, 0, 0); // bit widths; width 0 needs no data
    byte[] page = encodeInts(new int[] {1, 2, 3, 4, 5}, 128, 4);
    assertArrayEquals(expected, page);
    assertArrayEquals(new int[] {1, 2, 3, 4, 5}, decodeInts(page, 5));
    assertArrayEquals(expected, encodeLongs(new long[] {1, 2, 3, 4, 5}, 128, 4));
    assertArrayEquals(new long[] {1, 2, 3, 4, 5}, decodeLongs(page, 5));
  }

  @Test
  void specExample2() throws ParquetException {
    // 7, 5, 3, 1, 2, 3, 4, 5: deltas -2, -2, -2, 1, 1, 1, 1; min -2; relative 0,0,0,3,3,3,3 on
    // 2 bits ("00000011111111b" in value order), LSB first: 0xC0 0x3F, then zero padding to 32
    // values (8 bytes for the miniblock).
    byte[] expected =
        bytes(
            0x80, 0x01, 0x04, 0x08, // 8 values
            0x0E, // first value 7, zigzag
            0x03, // min delta -2, zigzag
            2, 0, 0, 0, // first miniblock 2 bits, unused ones 0
            0xC0, 0x3F, 0, 0, 0, 0, 0, 0);
    int[] values = {7, 5, 3, 1, 2, 3, 4, 5};
    byte[] page = encodeInts(values, 128, 4);
    assertArrayEquals(expected, page);
    assertArrayEquals(values, decodeInts(page, 8));
    int[] relative = new int[7];
    BitPacking.unpackInts(page, 10, relative, 0, 7, 2);
    assertArrayEquals(new int[] {0, 0, 0, 3, 3, 3, 3}, relative);
  }

  @Test
  void specExamplesLiteralBlockSizeEightIsRejected() {
    // The spec's own examples with block size 8 and one miniblock of 8 values, which it calls
    // invalid in real data: a reader must not accept them.
    byte[] example1 = bytes(0x08, 0x01, 0x05, 0x02, 0x02, 0x00);
    CorruptDataException e =
        assertThrows(CorruptDataException.class, () -> decodeInts(example1, 5));
    assertTrue(e.getMessage().contains("block size 8"), e.getMessage());
    byte[] example2 = bytes(0x08, 0x01, 0x08, 0x0E, 0x03, 0x02, 0xC0, 0x3F);
    assertThrows(CorruptDataException.class, () -> decodeInts(example2, 8));
  }

  @Test
  void headerFieldsWithCustomConfiguration() throws ParquetException {
    int[] values = new int[1000];
    Arrays.setAll(values, i -> i * 3 - 500);
    byte[] page = encodeInts(values, 256, 8);
    ByteReader header = new ByteReader(page, 0, page.length);
    assertEquals(256, header.readUnsignedVarInt("block size"));
    assertEquals(8, header.readUnsignedVarInt("miniblocks"));
    assertEquals(1000, header.readUnsignedVarInt("count"));
    assertEquals(-500, header.readZigZagVarLong("first"));
    assertEquals(3, header.readZigZagVarLong("min delta"));
    assertArrayEquals(values, decodeInts(page, 1000));
    assertEquals(
        Encoding.DELTA_BINARY_PACKED, new DeltaBinaryPackedEncoder(PhysicalType.INT32).encoding());
  }

  @Test
  void everyBitWidthInt32() throws ParquetException {
    Random random = new Random(32);
    for (int width = 0; width <= 32; width++) {
      int[] values = valuesWithDeltaWidth32(random, width, 200);
      byte[] page = encodeInts(values, 128, 4);
      assertEquals(width, firstMiniblockWidth(page), "width " + width);
      assertArrayEquals(values, decodeInts(page, values.length), "width " + width);
      assertArrayEquals(values, readInRandomBatches(page, values.length, random));
    }
  }

  @Test
  void everyBitWidthInt64() throws ParquetException {
    Random random = new Random(64);
    for (int width = 0; width <= 64; width++) {
      long[] values = valuesWithDeltaWidth64(random, width, 200);
      byte[] page = encodeLongs(values, 128, 4);
      assertEquals(width, firstMiniblockWidth(page), "width " + width);
      assertArrayEquals(values, decodeLongs(page, values.length), "width " + width);
    }
  }

  /** Values whose first block's deltas, minus their minimum, need exactly {@code width} bits. */
  static int[] valuesWithDeltaWidth32(Random random, int width, int count) {
    int[] values = new int[count];
    long mask = BitPacking.mask(width);
    // A min delta low enough that min + offset never wraps past MAX_VALUE.
    int min = (int) (Integer.MIN_VALUE + (random.nextLong() & (0xFFFFFFFFL - mask)));
    if (count > 0) {
      values[0] = random.nextInt();
    }
    for (int i = 1; i < count; i++) {
      int offset = (int) (random.nextLong() & mask);
      if (i == 1) {
        offset = 0;
      } else if (i == 2) {
        offset = (int) mask;
      }
      values[i] = values[i - 1] + min + offset;
    }
    return values;
  }

  static long[] valuesWithDeltaWidth64(Random random, int width, int count) {
    long[] values = new long[count];
    long mask = BitPacking.mask(width);
    long min = Long.MIN_VALUE + (random.nextLong() & ~mask & Long.MAX_VALUE);
    if (count > 0) {
      values[0] = random.nextLong();
    }
    for (int i = 1; i < count; i++) {
      long offset = random.nextLong() & mask;
      if (i == 1) {
        offset = 0;
      } else if (i == 2) {
        offset = mask;
      }
      values[i] = values[i - 1] + min + offset;
    }
    return values;
  }

  private static int firstMiniblockWidth(byte[] page) throws ParquetException {
    ByteReader reader = new ByteReader(page, 0, page.length);
    reader.readUnsignedVarInt("block size");
    reader.readUnsignedVarInt("miniblocks");
    reader.readUnsignedVarInt("count");
    reader.readZigZagVarLong("first");
    reader.readZigZagVarLong("min delta");
    return reader.readUnsignedByte("width");
  }

  @Test
  void roundTripsInt32() throws ParquetException {
    Random random = new Random(1);
    for (int[] config : CONFIGS) {
      for (int length : LENGTHS) {
        for (int pattern = 0; pattern < PATTERNS; pattern++) {
          int[] values = ints(random, pattern, length);
          byte[] page = encodeInts(values, config[0], config[1]);
          String label = Arrays.toString(config) + " length " + length + " pattern " + pattern;
          assertArrayEquals(values, decodeInts(page, length), label);
          assertArrayEquals(values, readInRandomBatches(page, length, random), label);
          assertSkipsThenReads(page, values, random, label);
        }
      }
    }
  }

  @Test
  void roundTripsInt64() throws ParquetException {
    Random random = new Random(2);
    for (int[] config : CONFIGS) {
      for (int length : LENGTHS) {
        for (int pattern = 0; pattern < PATTERNS; pattern++) {
          long[] values = longs(random, pattern, length);
          byte[] page = encodeLongs(values, config[0], config[1]);
          String label = Arrays.toString(config) + " length " + length + " pattern " + pattern;
          assertArrayEquals(values, decodeLongs(page, length), label);
          long[] batched = new long[length];
          DeltaBinaryPackedDecoder decoder = new DeltaBinaryPackedDecoder();
          decoder.init(page, 0, page.length, length);
          for (int done = 0; done < length; ) {
            int n = Math.min(length - done, 1 + random.nextInt(random.nextBoolean() ? 9 : 700));
            decoder.readLongs(batched, done, n);
            done += n;
          }
          assertArrayEquals(values, batched, label);
        }
      }
    }
  }

  static final int PATTERNS = 6;

  /** 0 random, 1 all equal, 2 extremes, 3 ascending, 4 small noise, 5 random widths per block. */
  static int[] ints(Random random, int pattern, int length) {
    int[] v = new int[length];
    int constant = random.nextInt();
    for (int i = 0; i < length; i++) {
      switch (pattern) {
        case 0 -> v[i] = random.nextInt();
        case 1 -> v[i] = constant;
        case 2 ->
            v[i] =
                switch (random.nextInt(4)) {
                  case 0 -> Integer.MIN_VALUE;
                  case 1 -> Integer.MAX_VALUE;
                  case 2 -> 0;
                  default -> -1;
                };
        case 3 -> v[i] = constant + i;
        case 4 -> v[i] = 1000 + random.nextInt(8);
        default -> v[i] = random.nextInt() >> (i / 128 % 32);
      }
    }
    return v;
  }

  static long[] longs(Random random, int pattern, int length) {
    long[] v = new long[length];
    long constant = random.nextLong();
    for (int i = 0; i < length; i++) {
      switch (pattern) {
        case 0 -> v[i] = random.nextLong();
        case 1 -> v[i] = constant;
        case 2 ->
            v[i] =
                switch (random.nextInt(4)) {
                  case 0 -> Long.MIN_VALUE;
                  case 1 -> Long.MAX_VALUE;
                  case 2 -> 0;
                  default -> -1;
                };
        case 3 -> v[i] = constant + i;
        case 4 -> v[i] = 1000 + random.nextInt(8);
        default -> v[i] = random.nextLong() >> (i / 128 % 64);
      }
    }
    return v;
  }

  static int[] readInRandomBatches(byte[] page, int count, Random random) throws ParquetException {
    DeltaBinaryPackedDecoder decoder = new DeltaBinaryPackedDecoder();
    decoder.init(page, 0, page.length, count);
    int[] out = new int[count];
    for (int done = 0; done < count; ) {
      // Mix tiny reads (scratch path) and long ones (straight into the destination).
      int n = Math.min(count - done, 1 + random.nextInt(random.nextBoolean() ? 9 : 700));
      decoder.readInts(out, done, n);
      done += n;
    }
    return out;
  }

  private static void assertSkipsThenReads(byte[] page, int[] values, Random random, String label)
      throws ParquetException {
    DeltaBinaryPackedDecoder decoder = new DeltaBinaryPackedDecoder();
    decoder.init(page, 0, page.length, values.length);
    int[] one = new int[1];
    for (int done = 0; done < values.length; ) {
      int n = Math.min(values.length - done, random.nextInt(300));
      decoder.skip(n);
      done += n;
      if (done < values.length) {
        decoder.readInts(one, 0, 1);
        assertEquals(values[done], one[0], label + " after skipping to " + done);
        done++;
      }
    }
    assertThrows(CorruptDataException.class, () -> decoder.readInts(one, 0, 1));
  }

  @Test
  void overflowingDeltasWrapAround() throws ParquetException {
    int[] ints = {
      Integer.MAX_VALUE,
      Integer.MIN_VALUE,
      Integer.MAX_VALUE,
      0,
      Integer.MIN_VALUE,
      -1,
      Integer.MAX_VALUE
    };
    byte[] page = encodeInts(ints, 128, 4);
    assertEquals(32, firstMiniblockWidth(page));
    assertArrayEquals(ints, decodeInts(page, ints.length));
    long[] longs = {Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, 0, Long.MIN_VALUE, -1};
    byte[] longPage = encodeLongs(longs, 128, 4);
    assertEquals(64, firstMiniblockWidth(longPage));
    assertArrayEquals(longs, decodeLongs(longPage, longs.length));
  }

  @Test
  void int32ReadAcceptsWidthsAboveThirtyTwo() throws ParquetException {
    // A writer computing INT32 deltas in 64 bits needs 33 bits here; the low 32 bits of the
    // 64-bit sums are still the values.
    int[] ints = {Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE, 5, Integer.MAX_VALUE};
    long[] widened = Arrays.stream(ints).asLongStream().toArray();
    byte[] page = encodeLongs(widened, 128, 4);
    assertEquals(33, firstMiniblockWidth(page));
    assertArrayEquals(ints, decodeInts(page, ints.length));
    assertArrayEquals(ints, readInRandomBatches(page, ints.length, new Random(3)));
  }

  @Test
  void acceptsGarbageWidthsOfUnusedMiniblocksAndPaddingBits() throws ParquetException {
    int[] values = {10, 11, 13, 16, 20};
    byte[] page = encodeInts(values, 128, 4);
    // Header 5 bytes, min delta 1 byte, widths at 6..9, miniblock 0 from 10 (width 2: 8 bytes).
    assertEquals(2, page[6]);
    page[7] = (byte) 0xFF;
    page[8] = (byte) 65;
    page[9] = (byte) 200;
    for (int i = 11; i < 18; i++) {
      page[i] = (byte) 0xFF; // padding bits after the fourth delta
    }
    page[10] |= (byte) 0x00;
    assertArrayEquals(values, decodeInts(page, values.length));
  }

  @Test
  void endOffsetStopsBeforeFollowingData() throws ParquetException {
    int[] values = new int[777];
    Arrays.setAll(values, i -> i * i);
    byte[] encoded = encodeInts(values, 256, 4);
    byte[] page = new byte[3 + encoded.length + 5];
    Arrays.fill(page, (byte) 0x5A);
    System.arraycopy(encoded, 0, page, 3, encoded.length);
    DeltaBinaryPackedDecoder decoder = new DeltaBinaryPackedDecoder();
    decoder.init(page, 3, page.length - 3, 1000);
    assertEquals(3 + encoded.length, decoder.endOffset());
    assertEquals(777, decoder.valueCount());
    int[] out = new int[777];
    decoder.readInts(out, 0, 777);
    assertArrayEquals(values, out);
  }

  @Test
  void emptyAndSingleValuePages() throws ParquetException {
    byte[] empty = encodeInts(new int[0], 128, 4);
    assertArrayEquals(bytes(0x80, 0x01, 0x04, 0x00, 0x00), empty);
    assertArrayEquals(new int[0], decodeInts(empty, 0));
    byte[] one = encodeLongs(new long[] {Long.MIN_VALUE}, 128, 4);
    assertArrayEquals(new long[] {Long.MIN_VALUE}, decodeLongs(one, 1));
  }

  @Test
  void encoderIsReusableAndAcceptsManySmallBatches() throws ParquetException {
    DeltaBinaryPackedEncoder encoder = new DeltaBinaryPackedEncoder(PhysicalType.INT64);
    long[] values = longs(new Random(5), 0, 500);
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < values.length; i += 3) {
        encoder.writeLongs(values, i, Math.min(3, values.length - i));
      }
      GrowableBuffer out = new GrowableBuffer();
      encoder.flushTo(out);
      assertArrayEquals(encodeLongs(values, 128, 4), out.toByteArray());
    }
    assertThrows(UnsupportedOperationException.class, () -> encoder.writeInts(new int[1], 0, 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> new DeltaBinaryPackedEncoder(PhysicalType.INT32, 100, 4));
    assertThrows(
        IllegalArgumentException.class,
        () -> new DeltaBinaryPackedEncoder(PhysicalType.INT32, 128, 8));
    assertThrows(
        IllegalArgumentException.class, () -> new DeltaBinaryPackedEncoder(PhysicalType.FLOAT));
  }

  @Test
  void rejectsMalformedHeadersAndBlocks() {
    // block size not a multiple of 128, zero, or beyond 31 bits
    assertCorrupt(bytes(0x81, 0x01, 0x04, 0x01, 0x00), 1);
    assertCorrupt(bytes(0x00, 0x04, 0x01, 0x00), 1);
    assertCorrupt(bytes(0x80, 0x80, 0x80, 0x80, 0x08, 0x04, 0x01, 0x00), 1);
    // miniblocks: zero, not a divisor, or leaving fewer than 32 values each
    assertCorrupt(bytes(0x80, 0x01, 0x00, 0x01, 0x00), 1);
    assertCorrupt(bytes(0x80, 0x01, 0x03, 0x01, 0x00), 1);
    assertCorrupt(bytes(0x80, 0x01, 0x08, 0x01, 0x00), 1);
    // more values than the page may hold
    assertCorrupt(bytes(0x80, 0x01, 0x04, 0x05, 0x00), 4);
    // truncated header
    assertCorrupt(bytes(0x80, 0x01, 0x04), 1);
    // a used miniblock wider than 64 bits
    assertCorrupt(bytes(0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 65, 0, 0, 0), 2);
    // missing bit widths
    assertCorrupt(bytes(0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 0), 2);
    // truncated miniblock: width 1 needs 4 bytes
    assertCorrupt(bytes(0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 1, 0, 0, 0, 0xFF, 0xFF, 0xFF), 2);
  }

  private static void assertCorrupt(byte[] page, int valueCount) {
    CorruptDataException e =
        assertThrows(
            CorruptDataException.class,
            () -> {
              DeltaBinaryPackedDecoder decoder = new DeltaBinaryPackedDecoder();
              decoder.init(page, 0, page.length, valueCount);
              decoder.readLongs(new long[decoder.valueCount()], 0, decoder.valueCount());
            });
    assertTrue(e.getMessage().startsWith("DELTA_BINARY_PACKED"), e.getMessage());
    assertTrue(
        e.getMessage().contains("byte") || e.getMessage().contains("position"), e.getMessage());
  }

  @Test
  void readingPastTheLastValueIsCorrupt() throws ParquetException {
    byte[] page = encodeInts(new int[] {1, 2, 3}, 128, 4);
    DeltaBinaryPackedDecoder decoder = new DeltaBinaryPackedDecoder();
    decoder.init(page, 0, page.length, 10);
    int[] out = new int[4];
    assertThrows(CorruptDataException.class, () -> decoder.readInts(out, 0, 4));
    assertThrows(CorruptDataException.class, () -> decoder.skip(4));
    decoder.readInts(out, 0, 3);
    assertArrayEquals(new int[] {1, 2, 3, 0}, out);
  }

  @Test
  void decoderIsReusable() throws ParquetException {
    DeltaBinaryPackedDecoder decoder = new DeltaBinaryPackedDecoder();
    Random random = new Random(9);
    for (int round = 0; round < 5; round++) {
      int[] values = ints(random, round % PATTERNS, 300 + round);
      byte[] page = encodeInts(values, 128, 4);
      decoder.init(page, 0, page.length, values.length);
      int[] out = new int[values.length];
      decoder.readInts(out, 0, 5);
      decoder.init(page, 0, page.length, values.length);
      decoder.readInts(out, 0, values.length);
      assertArrayEquals(values, out);
    }
  }

  @Test
  void aRejectedPageLeavesNothingToRead() throws ParquetException {
    byte[] good = encodeInts(new int[] {1, 2, 3}, 128, 4);
    byte[] bad = bytes(0x80, 0x01, 0x04, 0x03, 0x00, 0x00, 70, 0, 0, 0);
    DeltaBinaryPackedDecoder decoder = new DeltaBinaryPackedDecoder();
    decoder.init(good, 0, good.length, 3);
    assertThrows(CorruptDataException.class, () -> decoder.init(bad, 0, bad.length, 3));
    assertThrows(CorruptDataException.class, () -> decoder.readInts(new int[1], 0, 1));
    DeltaByteArrayDecoder strings = DeltaByteArrayDecoder.forByteArray();
    assertThrows(CorruptDataException.class, () -> strings.init(bad, 0, bad.length, 3));
    assertThrows(CorruptDataException.class, () -> strings.readBinaries(new BinaryBatch(), 1));
  }
}
