package dev.parquetconnect.format.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdOutputStream;
import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ZSTD frames as other writers produce them. */
class ZstdFramesTest {

  private static byte[] decompress(byte[] compressed, int size) throws Exception {
    try (Decompressor decompressor = Codecs.decompressor(CompressionCodec.ZSTD)) {
      byte[] back = new byte[size];
      decompressor.decompress(compressed, 0, compressed.length, back, 0, size);
      return back;
    }
  }

  private static byte[] streamed(byte[] data) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZstdOutputStream out = new ZstdOutputStream(bytes)) {
      out.write(data);
    }
    return bytes.toByteArray();
  }

  @Test
  void framesWithoutContentSizeDecode() throws Exception {
    byte[] data = TestInputs.compressible(1, 200_000);
    byte[] frame = streamed(data); // a streaming writer does not know the size up front
    assertEquals(-1, Zstd.getFrameContentSize(frame)); // ZSTD_CONTENTSIZE_UNKNOWN
    assertArrayEquals(data, decompress(frame, data.length));
  }

  @Test
  void concatenatedAndSkippableFramesDecode() throws Exception {
    byte[] a = TestInputs.compressible(2, 5000);
    byte[] b = TestInputs.random(3, 3000);
    // A skippable frame: magic 0x184D2A50, 4-byte length, then that many ignored bytes.
    byte[] skippable = {0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 9, 9, 9};
    ByteArrayOutputStream frames = new ByteArrayOutputStream();
    frames.writeBytes(Zstd.compress(a));
    frames.writeBytes(skippable);
    frames.writeBytes(streamed(b));
    frames.writeBytes(Zstd.compress(new byte[0]));
    byte[] back = decompress(frames.toByteArray(), a.length + b.length);
    assertArrayEquals(a, Arrays.copyOf(back, a.length));
    assertArrayEquals(b, Arrays.copyOfRange(back, a.length, back.length));
  }

  /** data/page_v2_empty_compressed: a dictionary page whose zstd frame holds 0 bytes. */
  @Test
  void emptyFrameFromTheCorpusDecodesToNothing() throws Exception {
    List<CorpusPages.Page> pages = CorpusPages.pages("page_v2_empty_compressed.parquet");
    CorpusPages.Page dictionary = pages.get(0);
    assertEquals(0, dictionary.uncompressedSize());
    assertTrue(dictionary.compressedSize() > 0);
    try (Decompressor decompressor = Codecs.decompressor(CompressionCodec.ZSTD)) {
      for (CorpusPages.Page page : pages) {
        byte[] back = new byte[page.uncompressedSize()];
        decompressor.decompress(
            page.fileBytes(), page.offset(), page.compressedSize(), back, 0, back.length);
      }
    }
  }

  @Test
  void writesTheContentSizeInTheFrameHeader() throws Exception {
    byte[] data = TestInputs.compressible(4, 12_345);
    try (Compressor compressor = Codecs.compressor(CompressionCodec.ZSTD, Codecs.DEFAULT_LEVEL)) {
      GrowableBuffer out = new GrowableBuffer();
      compressor.compress(data, 0, data.length, out);
      assertEquals(data.length, Zstd.getFrameContentSize(out.toByteArray()));
    }
  }

  @Test
  void sizeMismatchesAreCorrupt() throws Exception {
    byte[] data = TestInputs.compressible(5, 10_000);
    byte[] frame = streamed(data);
    CorruptDataException longer =
        assertThrows(CorruptDataException.class, () -> decompress(frame, data.length - 1));
    assertTrue(longer.getMessage().contains("more than the 9999 bytes"), longer.getMessage());
    CorruptDataException shorter =
        assertThrows(CorruptDataException.class, () -> decompress(frame, data.length + 1));
    assertTrue(shorter.getMessage().contains("decompressed to 10000"), shorter.getMessage());
    byte[] truncated = Arrays.copyOf(frame, frame.length - 2);
    CorruptDataException e =
        assertThrows(CorruptDataException.class, () -> decompress(truncated, data.length));
    assertTrue(e.getMessage().startsWith("ZSTD: "), e.getMessage());
  }
}
