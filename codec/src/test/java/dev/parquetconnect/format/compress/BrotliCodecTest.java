package dev.parquetconnect.format.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.aayushatharva.brotli4j.decoder.Decoder;
import com.aayushatharva.brotli4j.decoder.DecoderJNI;
import com.aayushatharva.brotli4j.decoder.DirectDecompress;
import com.aayushatharva.brotli4j.encoder.Encoder;
import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * BROTLI. parquet-java has no Brotli codec of its own (it needs the external brotli-codec jar), so
 * the cross-check is against brotli4j's one-shot encoder and decoder, which go through a different
 * path (whole-buffer JNI calls) from our streaming use of the native library.
 */
class BrotliCodecTest {

  @Test
  void oneShotBrotli4jDecodesOursAndWeDecodeItsOutput() throws Exception {
    try (Compressor compressor = Codecs.compressor(CompressionCodec.BROTLI, Codecs.DEFAULT_LEVEL);
        Decompressor decompressor = Codecs.decompressor(CompressionCodec.BROTLI)) {
      GrowableBuffer out = new GrowableBuffer();
      for (TestInputs.Input input : TestInputs.all()) {
        byte[] data = input.bytes();
        out.reset();
        compressor.compress(data, 0, data.length, out);
        DirectDecompress theirs = Decoder.decompress(out.toByteArray());
        assertEquals(DecoderJNI.Status.DONE, theirs.getResultStatus(), input.toString());
        byte[] decoded = theirs.getDecompressedData();
        assertArrayEquals(data, decoded == null ? new byte[0] : decoded, input.toString());

        byte[] compressed = Encoder.compress(data, new Encoder.Parameters().setQuality(5));
        byte[] back = new byte[data.length];
        decompressor.decompress(compressed, 0, compressed.length, back, 0, data.length);
        assertArrayEquals(data, back, input.toString());
      }
    }
  }

  /** Pages bigger than the 256 KiB input and 1 MiB encoder chunks go through in pieces. */
  @Test
  void largePagesStreamThroughTheNativeBuffers() throws Exception {
    byte[] data = TestInputs.random(12, 3_000_000);
    try (Compressor compressor = Codecs.compressor(CompressionCodec.BROTLI, 1);
        Decompressor decompressor = Codecs.decompressor(CompressionCodec.BROTLI)) {
      GrowableBuffer out = new GrowableBuffer();
      compressor.compress(data, 0, data.length, out);
      assertTrue(out.size() > 1 << 20);
      byte[] back = new byte[data.length];
      decompressor.decompress(out.array(), 0, out.size(), back, 0, back.length);
      assertArrayEquals(data, back);
    }
  }

  /**
   * data/large_string_map.brotli: two pages of about 1 GiB each from about 1.6 KB of Brotli (a
   * ratio over 600,000:1). Their sizes are legal, so the size check lets them through; a reader
   * that cannot afford them announces less and is stopped as soon as the output passes that,
   * without decoding the rest.
   */
  @Test
  void hugeExpansionIsStoppedAtTheAnnouncedSize() throws Exception {
    List<CorpusPages.Page> pages = CorpusPages.pages("large_string_map.brotli.parquet");
    try (Decompressor decompressor = Codecs.decompressor(CompressionCodec.BROTLI)) {
      int huge = 0;
      for (CorpusPages.Page page : pages) {
        assertEquals(CompressionCodec.BROTLI, page.codec());
        Codecs.checkSizes(page.codec(), page.compressedSize(), page.uncompressedSize());
        if (page.uncompressedSize() > 1 << 20) {
          huge++;
          byte[] small = new byte[16 << 20];
          long start = System.nanoTime();
          CorruptDataException e =
              assertThrows(
                  CorruptDataException.class,
                  () ->
                      decompressor.decompress(
                          page.fileBytes(),
                          page.offset(),
                          page.compressedSize(),
                          small,
                          0,
                          small.length));
          assertTrue(e.getMessage().contains("more than the 16777216 bytes"), e.getMessage());
          assertTrue(System.nanoTime() - start < 5_000_000_000L, "stopped early");
        } else {
          byte[] back = new byte[page.uncompressedSize()];
          decompressor.decompress(
              page.fileBytes(), page.offset(), page.compressedSize(), back, 0, back.length);
        }
      }
      assertEquals(2, huge);
    }
  }

  @Test
  void truncatedAndGarbageStreamsAreCorrupt() throws Exception {
    byte[] data = TestInputs.compressible(13, 50_000);
    byte[] compressed = Encoder.compress(data);
    try (Decompressor decompressor = Codecs.decompressor(CompressionCodec.BROTLI)) {
      byte[] back = new byte[data.length];
      CorruptDataException truncated =
          assertThrows(
              CorruptDataException.class,
              () ->
                  decompressor.decompress(
                      compressed, 0, compressed.length / 2, back, 0, back.length));
      assertTrue(truncated.getMessage().contains("truncated"), truncated.getMessage());
      byte[] garbage = TestInputs.random(14, 100);
      garbage[0] = (byte) 0xFF;
      assertThrows(
          CorruptDataException.class,
          () -> decompressor.decompress(garbage, 0, garbage.length, back, 0, back.length));
      byte[] trailing = Arrays.copyOf(compressed, compressed.length + 1);
      assertThrows(
          CorruptDataException.class,
          () -> decompressor.decompress(trailing, 0, trailing.length, back, 0, back.length));
      decompressor.decompress(compressed, 0, compressed.length, back, 0, back.length);
      assertArrayEquals(data, back);
    }
  }
}
