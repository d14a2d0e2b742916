package dev.parquetconnect.format.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ByteStreamSplitTest {
  private static final int[] COUNTS = {0, 1, 2, 7, 8, 9, 31, 32, 33, 128, 1000, 1024, 1025};

  private static final byte[] SPEC_PLAIN =
      bytes(0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6);
  private static final byte[] SPEC_SPLIT =
      bytes(0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6);

  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }

  static byte[] flush(ByteStreamSplitEncoder encoder) {
    long estimate = encoder.estimatedSize();
    GrowableBuffer out = new GrowableBuffer();
    encoder.flushTo(out);
    assertEquals(estimate, out.size());
    assertEquals(0, encoder.valueCount());
    return out.toByteArray();
  }

  static ByteStreamSplitDecoder decoder(PhysicalType type, int length, byte[] page, int count)
      throws ParquetException {
    ByteStreamSplitDecoder decoder = ByteStreamSplitDecoder.forType(type, length);
    decoder.init(page, 0, page.length, count);
    assertEquals(count, decoder.valueCount());
    return decoder;
  }

  @Test
  void specExampleFloats() throws ParquetException {
    float[] floats = new float[3];
    for (int i = 0; i < 3; i++) {
      floats[i] = Float.intBitsToFloat(LittleEndian.getInt(SPEC_PLAIN, 4 * i));
    }
    ByteStreamSplitEncoder encoder = ByteStreamSplitEncoder.forType(PhysicalType.FLOAT, 0);
    encoder.writeFloats(floats, 0, 3);
    assertEquals(3, encoder.valueCount());
    assertArrayEquals(SPEC_SPLIT, flush(encoder));
    float[] back = new float[3];
    decoder(PhysicalType.FLOAT, 0, SPEC_SPLIT, 3).readFloats(back, 0, 3);
    for (int i = 0; i < 3; i++) {
      assertEquals(Float.floatToRawIntBits(floats[i]), Float.floatToRawIntBits(back[i]));
    }
    assertEquals(Encoding.BYTE_STREAM_SPLIT, encoder.encoding());
  }

  @Test
  void specExampleAsInt32AndFixedLen() throws ParquetException {
    int[] ints = {0xDDCCBBAA, 0x33221100, 0xD6C5B4A3};
    ByteStreamSplitEncoder encoder = ByteStreamSplitEncoder.forType(PhysicalType.INT32, 0);
    encoder.writeInts(ints, 0, 3);
    assertArrayEquals(SPEC_SPLIT, flush(encoder));
    int[] back = new int[3];
    decoder(PhysicalType.INT32, 0, SPEC_SPLIT, 3).readInts(back, 0, 3);
    assertArrayEquals(ints, back);

    BinaryBatch flba = new BinaryBatch();
    for (int i = 0; i < 3; i++) {
      flba.add(SPEC_PLAIN, 4 * i, 4);
    }
    ByteStreamSplitEncoder flbaEncoder =
        ByteStreamSplitEncoder.forType(PhysicalType.FIXED_LEN_BYTE_ARRAY, 4);
    flbaEncoder.writeBinaries(flba, 0, 3);
    assertArrayEquals(SPEC_SPLIT, flush(flbaEncoder));
    BinaryBatch out = new BinaryBatch();
    decoder(PhysicalType.FIXED_LEN_BYTE_ARRAY, 4, SPEC_SPLIT, 3).readBinaries(out, 3);
    assertArrayEquals(SPEC_PLAIN, Arrays.copyOf(out.data(), out.byteSize()));
  }

  static float[] floats(Random random, int count) {
    float[] specials = {
      Float.NaN,
      Float.intBitsToFloat(0x7F800001),
      Float.intBitsToFloat(0xFFC12345),
      -0.0f,
      0.0f,
      Float.MIN_VALUE,
      Float.MAX_VALUE,
      Float.NEGATIVE_INFINITY,
      Float.POSITIVE_INFINITY,
      Float.MIN_NORMAL
    };
    float[] v = new float[count];
    for (int i = 0; i < count; i++) {
      v[i] =
          random.nextInt(4) == 0
              ? specials[random.nextInt(specials.length)]
              : Float.intBitsToFloat(random.nextInt());
    }
    return v;
  }

  static double[] doubles(Random random, int count) {
    double[] specials = {
      Double.NaN,
      Double.longBitsToDouble(0x7FF0000000000001L),
      Double.longBitsToDouble(0xFFF8DEADBEEF0001L),
      -0.0,
      0.0,
      Double.MIN_VALUE,
      Double.MAX_VALUE,
      Double.NEGATIVE_INFINITY,
      Double.POSITIVE_INFINITY
    };
    double[] v = new double[count];
    for (int i = 0; i < count; i++) {
      v[i] =
          random.nextInt(4) == 0
              ? specials[random.nextInt(specials.length)]
              : Double.longBitsToDouble(random.nextLong());
    }
    return v;
  }

  @Test
  void floatsRoundTripBitExactly() throws ParquetException {
    Random random = new Random(31);
    for (int count : COUNTS) {
      float[] values = floats(random, count);
      ByteStreamSplitEncoder encoder = ByteStreamSplitEncoder.forType(PhysicalType.FLOAT, 0);
      encoder.writeFloats(values, 0, count);
      byte[] page = flush(encoder);
      assertEquals(4 * count, page.length);
      ByteStreamSplitDecoder decoder = decoder(PhysicalType.FLOAT, 0, page, count);
      float[] back = new float[count];
      for (int done = 0; done < count; ) {
        int n = Math.min(count - done, 1 + random.nextInt(100));
        if (random.nextInt(4) == 0) {
          decoder.skip(n);
          System.arraycopy(values, done, back, done, n);
        } else {
          decoder.readFloats(back, done, n);
        }
        done += n;
      }
      for (int i = 0; i < count; i++) {
        assertEquals(
            Float.floatToRawIntBits(values[i]),
            Float.floatToRawIntBits(back[i]),
            "count " + count + " value " + i);
      }
    }
  }

  @Test
  void doublesRoundTripBitExactly() throws ParquetException {
    Random random = new Random(32);
    for (int count : COUNTS) {
      double[] values = doubles(random, count);
      ByteStreamSplitEncoder encoder = ByteStreamSplitEncoder.forType(PhysicalType.DOUBLE, 0);
      encoder.writeDoubles(values, 0, count);
      byte[] page = flush(encoder);
      double[] back = new double[count];
      decoder(PhysicalType.DOUBLE, 0, page, count).readDoubles(back, 0, count);
      for (int i = 0; i < count; i++) {
        assertEquals(
            Double.doubleToRawLongBits(values[i]),
            Double.doubleToRawLongBits(back[i]),
            "count " + count + " value " + i);
      }
    }
  }

  @Test
  void integersRoundTrip() throws ParquetException {
    Random random = new Random(33);
    for (int count : COUNTS) {
      int[] ints = new int[count];
      long[] longs = new long[count];
      for (int i = 0; i < count; i++) {
        ints[i] =
            i % 5 == 0 ? Integer.MIN_VALUE : i % 5 == 1 ? Integer.MAX_VALUE : random.nextInt();
        longs[i] = i % 5 == 0 ? Long.MIN_VALUE : i % 5 == 1 ? Long.MAX_VALUE : random.nextLong();
      }
      ByteStreamSplitEncoder intEncoder = ByteStreamSplitEncoder.forType(PhysicalType.INT32, 0);
      intEncoder.writeInts(ints, 0, count);
      int[] intsBack = new int[count];
      decoder(PhysicalType.INT32, 0, flush(intEncoder), count).readInts(intsBack, 0, count);
      assertArrayEquals(ints, intsBack);
      ByteStreamSplitEncoder longEncoder = ByteStreamSplitEncoder.forType(PhysicalType.INT64, 0);
      longEncoder.writeLongs(longs, 0, count);
      long[] longsBack = new long[count];
      decoder(PhysicalType.INT64, 0, flush(longEncoder), count).readLongs(longsBack, 0, count);
      assertArrayEquals(longs, longsBack);
    }
  }

  @Test
  void fixedLenByteArraysRoundTrip() throws ParquetException {
    Random random = new Random(34);
    for (int width : new int[] {1, 2, 3, 12, 16, 33}) {
      for (int count : COUNTS) {
        BinaryBatch values = new BinaryBatch();
        byte[] value = new byte[width];
        for (int i = 0; i < count; i++) {
          random.nextBytes(value);
          values.add(value);
        }
        ByteStreamSplitEncoder encoder =
            ByteStreamSplitEncoder.forType(PhysicalType.FIXED_LEN_BYTE_ARRAY, width);
        // In two batches, to check the encoder appends.
        encoder.writeBinaries(values, 0, count / 2);
        encoder.writeBinaries(values, count / 2, count - count / 2);
        byte[] page = flush(encoder);
        ByteStreamSplitDecoder decoder =
            decoder(PhysicalType.FIXED_LEN_BYTE_ARRAY, width, page, count);
        BinaryBatch back = new BinaryBatch(1, 1);
        decoder.readBinaries(back, count / 3);
        decoder.readBinaries(back, count - count / 3);
        assertEquals(count, back.count());
        for (int i = 0; i < count; i++) {
          assertArrayEquals(values.get(i), back.get(i), "width " + width + " value " + i);
        }
      }
    }
  }

  @Test
  void rejectsPagesThatAreNotWholeValues() throws ParquetException {
    ByteStreamSplitDecoder decoder = ByteStreamSplitDecoder.forType(PhysicalType.DOUBLE, 0);
    CorruptDataException e =
        assertThrows(CorruptDataException.class, () -> decoder.init(new byte[20], 0, 20, 10));
    assertTrue(e.getMessage().contains("20 bytes"), e.getMessage());
    assertThrows(
        CorruptDataException.class,
        () ->
            ByteStreamSplitDecoder.forType(PhysicalType.FIXED_LEN_BYTE_ARRAY, 3)
                .init(new byte[7], 0, 7, 10));
    // More values in the page than the page header allows.
    assertThrows(CorruptDataException.class, () -> decoder.init(new byte[24], 0, 24, 2));
    decoder.init(new byte[24], 0, 24, 3);
    assertThrows(CorruptDataException.class, () -> decoder.readDoubles(new double[4], 0, 4));
    assertThrows(CorruptDataException.class, () -> decoder.skip(4));
    assertThrows(
        CorruptDataException.class,
        () -> ByteStreamSplitDecoder.forType(PhysicalType.FIXED_LEN_BYTE_ARRAY, 0));
  }

  @Test
  void readsOnlyItsOwnType() throws ParquetException {
    ByteStreamSplitDecoder decoder = ByteStreamSplitDecoder.forType(PhysicalType.FLOAT, 0);
    decoder.init(new byte[8], 0, 8, 2);
    assertThrows(UnsupportedFeatureException.class, () -> decoder.readInts(new int[2], 0, 2));
    assertThrows(UnsupportedFeatureException.class, () -> decoder.readDoubles(new double[1], 0, 1));
    assertThrows(
        UnsupportedFeatureException.class, () -> decoder.readBinaries(new BinaryBatch(), 1));
    assertThrows(
        UnsupportedFeatureException.class,
        () -> ByteStreamSplitDecoder.forType(PhysicalType.BYTE_ARRAY, 0));
    assertThrows(
        UnsupportedOperationException.class,
        () -> ByteStreamSplitEncoder.forType(PhysicalType.FLOAT, 0).writeInts(new int[1], 0, 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> ByteStreamSplitEncoder.forType(PhysicalType.BOOLEAN, 0));
  }

  @Test
  void decodesFromTheMiddleOfAnArray() throws ParquetException {
    byte[] page = new byte[5 + SPEC_SPLIT.length + 3];
    System.arraycopy(SPEC_SPLIT, 0, page, 5, SPEC_SPLIT.length);
    ByteStreamSplitDecoder decoder = ByteStreamSplitDecoder.forType(PhysicalType.INT32, 0);
    decoder.init(page, 5, SPEC_SPLIT.length, 3);
    int[] back = new int[3];
    decoder.readInts(back, 0, 3);
    assertArrayEquals(new int[] {0xDDCCBBAA, 0x33221100, 0xD6C5B4A3}, back);
  }

  @Test
  void eightByteValuesReadInBatchesOfEverySizeAndOffset() throws Exception {
    // Batches of 1..17 values, so the eight-at-a-time path starts at every alignment and the
    // one-by-one tail runs between them; the page sits at an offset inside a larger array.
    Random random = new Random(9);
    int count = 1000;
    long[] values = new long[count];
    for (int i = 0; i < count; i++) {
      values[i] = random.nextLong();
    }
    int offset = 5;
    byte[] page = new byte[offset + 8 * count + 3];
    for (int i = 0; i < count; i++) {
      for (int k = 0; k < 8; k++) {
        page[offset + k * count + i] = (byte) (values[i] >>> (8 * k));
      }
    }
    ByteStreamSplitDecoder longs = ByteStreamSplitDecoder.forType(PhysicalType.INT64, 0);
    ByteStreamSplitDecoder doubles = ByteStreamSplitDecoder.forType(PhysicalType.DOUBLE, 0);
    longs.init(page, offset, 8 * count, count);
    doubles.init(page, offset, 8 * count, count);
    long[] longsBack = new long[count + 2];
    double[] doublesBack = new double[count + 2];
    for (int done = 0, batch = 1; done < count; done += batch, batch = batch % 17 + 1) {
      batch = Math.min(batch, count - done);
      longs.readLongs(longsBack, done + 2, batch);
      doubles.readDoubles(doublesBack, done + 2, batch);
    }
    for (int i = 0; i < count; i++) {
      assertEquals(values[i], longsBack[i + 2], "value " + i);
      assertEquals(values[i], Double.doubleToRawLongBits(doublesBack[i + 2]), "value " + i);
    }
  }
}
