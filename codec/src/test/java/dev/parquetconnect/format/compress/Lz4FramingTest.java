package dev.parquetconnect.format.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jpountz.lz4.LZ4Factory;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;

/** The deprecated LZ4 codec: Hadoop framing written, Hadoop framing and bare blocks read. */
class Lz4FramingTest {

  static int intBE(byte[] b, int pos) {
    return (b[pos] & 0xFF) << 24
        | (b[pos + 1] & 0xFF) << 16
        | (b[pos + 2] & 0xFF) << 8
        | (b[pos + 3] & 0xFF);
  }

  private static byte[] compress(CompressionCodec codec, byte[] data) throws Exception {
    try (Compressor compressor = Codecs.compressor(codec, Codecs.DEFAULT_LEVEL)) {
      GrowableBuffer out = new GrowableBuffer();
      compressor.compress(data, 0, data.length, out);
      return out.toByteArray();
    }
  }

  private static byte[] decompressLz4(byte[] compressed, int size) throws Exception {
    try (Decompressor decompressor = Codecs.decompressor(CompressionCodec.LZ4)) {
      byte[] back = new byte[size];
      decompressor.decompress(compressed, 0, compressed.length, back, 0, size);
      return back;
    }
  }

  @Test
  void writesHadoopBlocksOfAtMost128KiB() throws Exception {
    byte[] data = TestInputs.random(3, 300_000);
    byte[] framed = compress(CompressionCodec.LZ4, data);
    List<Integer> blockSizes = new ArrayList<>();
    int pos = 0;
    while (pos < framed.length) {
      int raw = intBE(framed, pos);
      int compressed = intBE(framed, pos + 4);
      byte[] block = new byte[raw];
      LZ4Factory.safeInstance()
          .safeDecompressor()
          .decompress(framed, pos + 8, compressed, block, 0, raw);
      blockSizes.add(raw);
      pos += 8 + compressed;
    }
    assertEquals(framed.length, pos);
    assertEquals(List.of(131_072, 131_072, 37_856), blockSizes);
  }

  @Test
  void writesNothingForAnEmptyPage() throws Exception {
    assertEquals(0, compress(CompressionCodec.LZ4, new byte[0]).length);
  }

  @Test
  void readsBothHadoopFramedAndBareBlocks() throws Exception {
    for (byte[] data :
        new byte[][] {
          TestInputs.compressible(1, 10),
          TestInputs.compressible(2, 5000),
          TestInputs.random(3, 200_000),
          new byte[1]
        }) {
      byte[] framed = compress(CompressionCodec.LZ4, data);
      byte[] bare = compress(CompressionCodec.LZ4_RAW, data);
      assertFalse(Arrays.equals(framed, bare));
      assertArrayEquals(data, decompressLz4(framed, data.length), "framed " + data.length);
      assertArrayEquals(data, decompressLz4(bare, data.length), "bare " + data.length);
    }
  }

  /** What Hadoop writes for an empty page: one block header announcing 0 bytes, no chunk. */
  @Test
  void readsAnEmptyHadoopBlock() throws Exception {
    assertArrayEquals(new byte[0], decompressLz4(new byte[4], 0));
  }

  /** One block length covering several chunks, as Hadoop writes a page over its buffer size. */
  @Test
  void readsSeveralChunksUnderOneBlockLength() throws Exception {
    byte[] data = TestInputs.compressible(4, 250_000);
    GrowableBuffer out = new GrowableBuffer();
    out.ensureCapacity(4);
    Lz4HadoopCompressor.putIntBE(out.array(), 0, data.length);
    out.advance(4);
    for (int done = 0; done < data.length; done += 100_000) {
      int n = Math.min(100_000, data.length - done);
      byte[] chunk = LZ4Factory.safeInstance().fastCompressor().compress(data, done, n);
      out.ensureCapacity(4);
      Lz4HadoopCompressor.putIntBE(out.array(), out.size(), chunk.length);
      out.advance(4);
      out.write(chunk);
    }
    assertArrayEquals(data, decompressLz4(out.toByteArray(), data.length));
  }

  @Test
  void framingThatDoesNotAddUpFallsBackToABareBlockAndThenFails() throws Exception {
    byte[] data = TestInputs.compressible(5, 1000);
    byte[] framed = compress(CompressionCodec.LZ4, data);
    // Announce one byte more than the block holds: the framing no longer adds up.
    byte[] wrongBlockSize = framed.clone();
    Lz4HadoopCompressor.putIntBE(wrongBlockSize, 0, data.length + 1);
    CorruptDataException e =
        assertThrows(CorruptDataException.class, () -> decompressLz4(wrongBlockSize, data.length));
    assertTrue(e.getMessage().contains("neither Hadoop-framed"), e.getMessage());
    // A compressed length past the end of the input.
    byte[] wrongChunkSize = framed.clone();
    Lz4HadoopCompressor.putIntBE(wrongChunkSize, 4, framed.length);
    assertThrows(CorruptDataException.class, () -> decompressLz4(wrongChunkSize, data.length));
    // Trailing bytes after the last block.
    byte[] trailing = Arrays.copyOf(framed, framed.length + 3);
    assertThrows(CorruptDataException.class, () -> decompressLz4(trailing, data.length));
  }

  /** parquet-java reads the Hadoop framing we write (it cannot read bare blocks). */
  @Test
  void parquetJavaReadsOurFraming() throws Exception {
    CodecFactory factory = new CodecFactory(new Configuration(), 1 << 20);
    try {
      byte[] data = TestInputs.compressible(6, 600_000);
      byte[] framed = compress(CompressionCodec.LZ4, data);
      byte[] back =
          ParquetJavaCrossCheckTest.bytes(
              factory
                  .getDecompressor(CompressionCodecName.LZ4)
                  .decompress(BytesInput.from(framed), data.length));
      assertArrayEquals(data, back);
    } finally {
      factory.release();
    }
  }

  /**
   * The corpus holds the same three columns written both ways (parquet-java's Hadoop framing, older
   * parquet-cpp's bare blocks); every page of both decodes, to the same dictionaries.
   */
  @Test
  void corpusFilesInBothFramingsDecodeAlike() throws Exception {
    List<byte[]> hadoop = decodeAll("hadoop_lz4_compressed.parquet");
    List<byte[]> bare = decodeAll("non_hadoop_lz4_compressed.parquet");
    assertEquals(hadoop.size(), bare.size());
    for (int page = 0; page < hadoop.size(); page += 2) { // dictionary pages
      assertArrayEquals(hadoop.get(page), bare.get(page), "dictionary page " + page);
    }
    assertEquals(1, decodeAll("hadoop_lz4_compressed_larger.parquet").size());
  }

  private static List<byte[]> decodeAll(String file) throws Exception {
    List<byte[]> out = new ArrayList<>();
    try (Decompressor decompressor = Codecs.decompressor(CompressionCodec.LZ4)) {
      for (CorpusPages.Page page : CorpusPages.pages(file)) {
        assertEquals(CompressionCodec.LZ4, page.codec());
        byte[] back = new byte[page.uncompressedSize()];
        decompressor.decompress(
            page.fileBytes(), page.offset(), page.compressedSize(), back, 0, back.length);
        out.add(back);
      }
    }
    return out;
  }
}
