package dev.parquetconnect.format.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CodecRoundTripTest {
  private static final byte SENTINEL = (byte) 0xA5;

  /**
   * One compressor and one decompressor per codec, reused for every input, appending after bytes
   * already in the buffer and decompressing between guard bytes.
   */
  @ParameterizedTest
  @EnumSource(value = CompressionCodec.class, names = "LZO", mode = EnumSource.Mode.EXCLUDE)
  void roundTripsEveryInputWithReusedInstances(CompressionCodec codec) throws Exception {
    try (Compressor compressor = Codecs.compressor(codec, Codecs.DEFAULT_LEVEL);
        Decompressor decompressor = Codecs.decompressor(codec)) {
      assertEquals(codec, compressor.codec());
      assertEquals(codec, decompressor.codec());
      GrowableBuffer out = new GrowableBuffer(16);
      for (TestInputs.Input input : TestInputs.all()) {
        byte[] data = input.bytes();
        out.reset();
        out.write(new byte[] {1, 2, 3});
        compressor.compress(data, 0, data.length, out);
        int compressedLength = out.size() - 3;
        assertArrayEquals(new byte[] {1, 2, 3}, Arrays.copyOf(out.array(), 3), "prefix kept");
        assertTrue(
            compressedLength <= compressor.maxCompressedLength(data.length),
            codec + " " + input + ": " + compressedLength + " over the bound");

        byte[] dst = new byte[data.length + 10];
        Arrays.fill(dst, SENTINEL);
        decompressor.decompress(out.array(), 3, compressedLength, dst, 5, data.length);
        assertArrayEquals(data, Arrays.copyOfRange(dst, 5, 5 + data.length), codec + " " + input);
        for (int i : new int[] {0, 4, dst.length - 5, dst.length - 1}) {
          assertEquals(SENTINEL, dst[i], codec + " " + input + ": wrote outside its range");
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = CompressionCodec.class, names = "LZO", mode = EnumSource.Mode.EXCLUDE)
  void compressesASliceOfALargerArray(CompressionCodec codec) throws Exception {
    byte[] whole = TestInputs.compressible(7, 10_000);
    try (Compressor compressor = Codecs.compressor(codec, Codecs.DEFAULT_LEVEL);
        Decompressor decompressor = Codecs.decompressor(codec)) {
      GrowableBuffer out = new GrowableBuffer();
      compressor.compress(whole, 1234, 5000, out);
      byte[] back = new byte[5000];
      decompressor.decompress(out.array(), 0, out.size(), back, 0, 5000);
      assertArrayEquals(Arrays.copyOfRange(whole, 1234, 6234), back);
    }
  }

  /** A decompressor keeps working after it has rejected a page. */
  @ParameterizedTest
  @EnumSource(value = CompressionCodec.class, names = "LZO", mode = EnumSource.Mode.EXCLUDE)
  void decompressorIsReusableAfterAnError(CompressionCodec codec) throws Exception {
    byte[] data = TestInputs.compressible(11, 50_000);
    try (Compressor compressor = Codecs.compressor(codec, Codecs.DEFAULT_LEVEL);
        Decompressor decompressor = Codecs.decompressor(codec)) {
      GrowableBuffer out = new GrowableBuffer();
      compressor.compress(data, 0, data.length, out);
      byte[] compressed = out.toByteArray();
      byte[] dst = new byte[data.length];
      // Announcing one byte less than the data holds must fail for every codec.
      assertThrows(
          CorruptDataException.class,
          () -> decompressor.decompress(compressed, 0, compressed.length, dst, 0, data.length - 1));
      // So must announcing one byte more.
      byte[] bigger = new byte[data.length + 1];
      assertThrows(
          CorruptDataException.class,
          () ->
              decompressor.decompress(
                  compressed, 0, compressed.length, bigger, 0, data.length + 1));
      decompressor.decompress(compressed, 0, compressed.length, dst, 0, data.length);
      assertArrayEquals(data, dst);
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = CompressionCodec.class,
      names = {"GZIP", "ZSTD", "BROTLI"})
  void everyLevelRoundTrips(CompressionCodec codec) throws Exception {
    int[] levels =
        switch (codec) {
          case GZIP -> new int[] {0, 1, 5, 9};
          case ZSTD -> new int[] {-5, 1, 3, 9, 19};
          case BROTLI -> new int[] {0, 1, 4, 9, 11};
          default -> throw new AssertionError(codec);
        };
    byte[] data = TestInputs.compressible(5, 70_000);
    try (Decompressor decompressor = Codecs.decompressor(codec)) {
      int previous = Integer.MAX_VALUE;
      for (int level : levels) {
        try (Compressor compressor = Codecs.compressor(codec, level)) {
          GrowableBuffer out = new GrowableBuffer();
          compressor.compress(data, 0, data.length, out);
          byte[] back = new byte[data.length];
          decompressor.decompress(out.array(), 0, out.size(), back, 0, back.length);
          assertArrayEquals(data, back, codec + " level " + level);
          if (level == levels[levels.length - 1]) {
            assertTrue(out.size() < previous, codec + ": the top level compresses best");
          }
          previous = Math.min(previous, out.size());
        }
      }
    }
  }
}
