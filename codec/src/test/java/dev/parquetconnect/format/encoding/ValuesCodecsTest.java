package dev.parquetconnect.format.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Every encoding x type pair the factory offers round-trips; every other pair is refused. */
class ValuesCodecsTest {
  private static final int N = 1000;
  private static final int FIXED = 5;

  @Test
  void everyDefinedPairRoundTripsThroughTheFactory() throws Exception {
    Random random = new Random(11);
    for (Encoding encoding : Encoding.values()) {
      for (PhysicalType type : PhysicalType.values()) {
        if (!ValuesCodecs.isDefined(encoding, type) || encoding.usesDictionary()) {
          continue;
        }
        int typeLength = type == PhysicalType.FIXED_LEN_BYTE_ARRAY ? FIXED : 0;
        ValuesEncoder encoder = ValuesCodecs.encoder(encoding, type, typeLength);
        assertEquals(encoding, encoder.encoding());
        GrowableBuffer page = new GrowableBuffer();
        ValuesDecoder decoder = ValuesCodecs.decoder(encoding, type, typeLength);
        String what = encoding + "/" + type;
        switch (type) {
          case BOOLEAN -> {
            boolean[] values = new boolean[N];
            for (int i = 0; i < N; i++) {
              values[i] = random.nextBoolean();
            }
            encoder.writeBooleans(values, 0, N);
            encoder.flushTo(page);
            decoder.init(page.array(), 0, page.size(), N);
            boolean[] back = new boolean[N];
            decoder.readBooleans(back, 0, N);
            assertArrayEquals(values, back, what);
          }
          case INT32 -> {
            int[] values = random.ints(N).toArray();
            encoder.writeInts(values, 0, N);
            encoder.flushTo(page);
            decoder.init(page.array(), 0, page.size(), N);
            int[] back = new int[N];
            decoder.readInts(back, 0, N);
            assertArrayEquals(values, back, what);
          }
          case INT64 -> {
            long[] values = random.longs(N).toArray();
            encoder.writeLongs(values, 0, N);
            encoder.flushTo(page);
            decoder.init(page.array(), 0, page.size(), N);
            long[] back = new long[N];
            decoder.readLongs(back, 0, N);
            assertArrayEquals(values, back, what);
          }
          case FLOAT -> {
            float[] values = new float[N];
            for (int i = 0; i < N; i++) {
              values[i] = random.nextFloat();
            }
            encoder.writeFloats(values, 0, N);
            encoder.flushTo(page);
            decoder.init(page.array(), 0, page.size(), N);
            float[] back = new float[N];
            decoder.readFloats(back, 0, N);
            assertArrayEquals(values, back, what);
          }
          case DOUBLE -> {
            double[] values = random.doubles(N).toArray();
            encoder.writeDoubles(values, 0, N);
            encoder.flushTo(page);
            decoder.init(page.array(), 0, page.size(), N);
            double[] back = new double[N];
            decoder.readDoubles(back, 0, N);
            assertArrayEquals(values, back, what);
          }
          case INT96, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> {
            BinaryBatch values = new BinaryBatch();
            for (int i = 0; i < N; i++) {
              int len =
                  type == PhysicalType.INT96
                      ? 12
                      : typeLength > 0 ? typeLength : random.nextInt(20);
              byte[] v = new byte[len];
              random.nextBytes(v);
              values.add(v);
            }
            encoder.writeBinaries(values, 0, N);
            encoder.flushTo(page);
            decoder.init(page.array(), 0, page.size(), N);
            BinaryBatch back = new BinaryBatch();
            decoder.readBinaries(back, N);
            assertEquals(N, back.count(), what);
            for (int i = 0; i < N; i++) {
              assertArrayEquals(values.get(i), back.get(i), what + " value " + i);
            }
          }
        }
      }
    }
  }

  @Test
  void undefinedPairsAreRefused() {
    assertThrows(
        UnsupportedFeatureException.class,
        () -> ValuesCodecs.decoder(Encoding.DELTA_BINARY_PACKED, PhysicalType.FLOAT, 0));
    assertThrows(
        UnsupportedFeatureException.class,
        () -> ValuesCodecs.decoder(Encoding.RLE, PhysicalType.INT32, 0));
    assertThrows(
        UnsupportedFeatureException.class,
        () -> ValuesCodecs.decoder(Encoding.DELTA_LENGTH_BYTE_ARRAY, PhysicalType.INT64, 0));
    assertThrows(
        UnsupportedFeatureException.class,
        () -> ValuesCodecs.decoder(Encoding.BYTE_STREAM_SPLIT, PhysicalType.BOOLEAN, 0));
    assertThrows(
        UnsupportedFeatureException.class,
        () -> ValuesCodecs.decoder(Encoding.RLE_DICTIONARY, PhysicalType.INT32, 0));
    assertThrows(
        UnsupportedFeatureException.class,
        () -> ValuesCodecs.decoder(Encoding.BIT_PACKED, PhysicalType.INT32, 0));
    assertThrows(
        IllegalArgumentException.class,
        () -> ValuesCodecs.encoder(Encoding.DELTA_BYTE_ARRAY, PhysicalType.DOUBLE, 0));
  }
}
