package dev.parquetconnect.format.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CodecsTest {

  @Test
  void everyCodecButLzoIsAvailableHere() {
    for (CompressionCodec codec : TestInputs.CODECS) {
      assertTrue(Codecs.isAvailable(codec), codec.name());
    }
    assertFalse(Codecs.isAvailable(CompressionCodec.LZO));
  }

  @Test
  void lzoIsUnsupportedWithAClearMessage() {
    UnsupportedFeatureException read =
        assertThrows(
            UnsupportedFeatureException.class, () -> Codecs.decompressor(CompressionCodec.LZO));
    assertTrue(read.getMessage().startsWith("codec LZO is not supported"), read.getMessage());
    assertThrows(
        UnsupportedFeatureException.class,
        () -> Codecs.compressor(CompressionCodec.LZO, Codecs.DEFAULT_LEVEL));
  }

  @Test
  void levelsOutsideTheCodecsRangeAreRejected() {
    assertThrows(
        IllegalArgumentException.class, () -> Codecs.compressor(CompressionCodec.GZIP, 10));
    assertThrows(
        IllegalArgumentException.class, () -> Codecs.compressor(CompressionCodec.GZIP, -1));
    assertThrows(
        IllegalArgumentException.class, () -> Codecs.compressor(CompressionCodec.ZSTD, 23));
    assertThrows(
        IllegalArgumentException.class, () -> Codecs.compressor(CompressionCodec.BROTLI, 12));
  }

  /** Codecs without levels ignore the level, so one connector setting can serve all codecs. */
  @Test
  void codecsWithoutLevelsIgnoreIt() throws Exception {
    for (CompressionCodec codec :
        new CompressionCodec[] {
          CompressionCodec.UNCOMPRESSED,
          CompressionCodec.SNAPPY,
          CompressionCodec.LZ4,
          CompressionCodec.LZ4_RAW
        }) {
      try (Compressor compressor = Codecs.compressor(codec, 42)) {
        assertEquals(codec, compressor.codec());
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = CompressionCodec.class, names = "LZO", mode = EnumSource.Mode.EXCLUDE)
  void impossibleSizesFailBeforeTheDestinationIsTouched(CompressionCodec codec) throws Exception {
    byte[] src = new byte[100];
    byte[] noRoom = new byte[0];
    try (Decompressor decompressor = Codecs.decompressor(codec)) {
      CorruptDataException negative =
          assertThrows(
              CorruptDataException.class,
              () -> decompressor.decompress(src, 0, src.length, noRoom, 0, -5));
      assertTrue(
          negative.getMessage().contains("negative uncompressed size"), negative.getMessage());
      assertThrows(
          UnsupportedFeatureException.class,
          () -> decompressor.decompress(src, 0, src.length, noRoom, 0, Integer.MAX_VALUE));
      if (codec != CompressionCodec.BROTLI) {
        // 100 bytes of any other codec cannot expand to 1 GiB.
        CorruptDataException absurd =
            assertThrows(
                CorruptDataException.class,
                () -> decompressor.decompress(src, 0, src.length, noRoom, 0, 1 << 30));
        assertTrue(absurd.getMessage().contains("cannot decompress to"), absurd.getMessage());
      }
    }
  }

  @Test
  void checkSizesBoundsEachCodecsExpansion() throws ParquetException {
    Codecs.checkSizes(CompressionCodec.UNCOMPRESSED, 10, 10);
    assertThrows(
        CorruptDataException.class, () -> Codecs.checkSizes(CompressionCodec.UNCOMPRESSED, 10, 11));
    Codecs.checkSizes(CompressionCodec.SNAPPY, 3, 64);
    assertThrows(
        CorruptDataException.class, () -> Codecs.checkSizes(CompressionCodec.SNAPPY, 3, 67));
    Codecs.checkSizes(CompressionCodec.GZIP, 1000, 1_032_000);
    assertThrows(
        CorruptDataException.class,
        () -> Codecs.checkSizes(CompressionCodec.GZIP, 1000, 1_032_001));
    Codecs.checkSizes(CompressionCodec.ZSTD, 1000, 32_768_000);
    Codecs.checkSizes(CompressionCodec.LZ4, 1000, 256_000);
    Codecs.checkSizes(CompressionCodec.BROTLI, 1, Integer.MAX_VALUE - 8);
    assertThrows(
        UnsupportedFeatureException.class,
        () -> Codecs.checkSizes(CompressionCodec.BROTLI, 1, Integer.MAX_VALUE));
    assertThrows(CorruptDataException.class, () -> Codecs.checkSizes(CompressionCodec.ZSTD, -1, 0));
    Codecs.checkSizes(CompressionCodec.ZSTD, 0, 0);
  }

  /** The real worst cases stay inside the bounds: zstd's RLE block and LZ4's long matches. */
  @Test
  void realWorstCaseExpansionsPassTheSizeCheck() throws Exception {
    byte[] zeros = new byte[16 << 20];
    for (CompressionCodec codec : TestInputs.CODECS) {
      int level = codec == CompressionCodec.ZSTD ? 19 : codec == CompressionCodec.GZIP ? 9 : 11;
      try (Compressor compressor = Codecs.compressor(codec, level);
          Decompressor decompressor = Codecs.decompressor(codec)) {
        GrowableBuffer out = new GrowableBuffer();
        compressor.compress(zeros, 0, zeros.length, out);
        Codecs.checkSizes(codec, out.size(), zeros.length);
        byte[] back = new byte[zeros.length];
        decompressor.decompress(out.array(), 0, out.size(), back, 0, back.length);
      }
    }
  }

  @Test
  void snappyLengthPrefixMustMatchTheAnnouncedSize() throws Exception {
    byte[] data = TestInputs.compressible(1, 1000);
    try (Compressor compressor = Codecs.compressor(CompressionCodec.SNAPPY, Codecs.DEFAULT_LEVEL);
        Decompressor decompressor = Codecs.decompressor(CompressionCodec.SNAPPY)) {
      GrowableBuffer out = new GrowableBuffer();
      compressor.compress(data, 0, data.length, out);
      CorruptDataException e =
          assertThrows(
              CorruptDataException.class,
              () -> decompressor.decompress(out.array(), 0, out.size(), new byte[999], 0, 999));
      assertTrue(e.getMessage().contains("length prefix says 1000"), e.getMessage());
    }
  }

  @Test
  void uncompressedChecksTheLength() throws Exception {
    try (Decompressor decompressor = Codecs.decompressor(CompressionCodec.UNCOMPRESSED)) {
      CorruptDataException e =
          assertThrows(
              CorruptDataException.class,
              () -> decompressor.decompress(new byte[10], 0, 10, new byte[9], 0, 9));
      assertTrue(e.getMessage().contains("holds 10 bytes but announces 9"), e.getMessage());
    }
  }
}
