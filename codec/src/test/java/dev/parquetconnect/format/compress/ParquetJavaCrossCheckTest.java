package dev.parquetconnect.format.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Our codecs against parquet-java's (parquet-hadoop {@link CodecFactory}, which uses Hadoop's
 * GzipCodec and Lz4Codec, and its own Snappy, Zstandard and LZ4_RAW codecs): what either side
 * compresses, the other decompresses to the original. parquet-java has no Brotli codec without the
 * external brotli-codec jar; {@code BrotliCodecTest} cross-checks Brotli with brotli4j.
 */
class ParquetJavaCrossCheckTest {
  private static CodecFactory factory;

  @BeforeAll
  static void createFactory() {
    factory = new CodecFactory(new Configuration(), 1 << 20);
  }

  @AfterAll
  static void releaseFactory() {
    factory.release();
  }

  /** The bytes of a parquet-java buffer ({@code toByteArray()} is deprecated). */
  static byte[] bytes(BytesInput input) throws IOException {
    return input.toInputStream().readAllBytes();
  }

  @ParameterizedTest
  @EnumSource(
      value = CompressionCodec.class,
      names = {"SNAPPY", "GZIP", "ZSTD", "LZ4_RAW", "LZ4"})
  void parquetJavaDecodesOurs(CompressionCodec codec) throws Exception {
    BytesInputDecompressor theirs =
        factory.getDecompressor(CompressionCodecName.valueOf(codec.name()));
    try (Compressor ours = Codecs.compressor(codec, Codecs.DEFAULT_LEVEL)) {
      GrowableBuffer out = new GrowableBuffer();
      for (TestInputs.Input input : TestInputs.all()) {
        byte[] data = input.bytes();
        out.reset();
        ours.compress(data, 0, data.length, out);
        byte[] back = bytes(theirs.decompress(BytesInput.from(out.toByteArray()), data.length));
        assertArrayEquals(data, back, codec + " " + input);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = CompressionCodec.class,
      names = {"SNAPPY", "GZIP", "ZSTD", "LZ4_RAW", "LZ4"})
  void weDecodeParquetJavas(CompressionCodec codec) throws Exception {
    BytesInputCompressor theirs = factory.getCompressor(CompressionCodecName.valueOf(codec.name()));
    try (Decompressor ours = Codecs.decompressor(codec)) {
      for (TestInputs.Input input : TestInputs.all()) {
        byte[] data = input.bytes();
        byte[] compressed = bytes(theirs.compress(BytesInput.from(data)));
        byte[] back = new byte[data.length];
        ours.decompress(compressed, 0, compressed.length, back, 0, data.length);
        assertArrayEquals(data, back, codec + " " + input);
      }
    }
  }

  /** Hadoop's LZ4 splits a write over its 256 KiB buffer into several chunks under one block. */
  @Test
  void weDecodeHadoopLz4WithSeveralChunksPerBlock() throws Exception {
    BytesInputCompressor theirs = factory.getCompressor(CompressionCodecName.LZ4);
    byte[] data = TestInputs.compressible(99, 1_500_000);
    byte[] compressed = bytes(theirs.compress(BytesInput.from(data)));
    try (Decompressor ours = Codecs.decompressor(CompressionCodec.LZ4)) {
      byte[] back = new byte[data.length];
      ours.decompress(compressed, 0, compressed.length, back, 0, data.length);
      assertArrayEquals(data, back);
    }
    // One block header announcing the whole input, then more than one chunk.
    assertEquals(data.length, Lz4FramingTest.intBE(compressed, 0));
    assertTrue(Lz4FramingTest.intBE(compressed, 4) + 8 < compressed.length, "several chunks");
  }
}
