package dev.parquetconnect.format.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.meta.CompressionCodec;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;

/**
 * Every compressed page of the interoperability corpus decodes with our decompressors to what
 * parquet-java's decompressors produce.
 */
class CorpusPagesTest {
  /**
   * Every corpus file with compressed pages but two, covered elsewhere: the bare-block LZ4 file
   * parquet-java cannot read (Lz4FramingTest) and the Brotli file with 1 GiB pages parquet-java has
   * no codec for (BrotliCodecTest).
   */
  private static final List<String> FILES =
      List.of(
          "alltypes_plain.snappy.parquet",
          "byte_stream_split.zstd.parquet",
          "data_index_bloom_encoding_stats.parquet",
          "datapage_v1-snappy-compressed-checksum.parquet",
          "datapage_v2.snappy.parquet",
          "delta_length_byte_array.parquet",
          "dict-page-offset-zero.parquet",
          "hadoop_lz4_compressed.parquet",
          "hadoop_lz4_compressed_larger.parquet",
          "incorrect_map_schema.parquet",
          "int96_from_spark.parquet",
          "list_columns.parquet",
          "lz4_raw_compressed.parquet",
          "nan_in_stats.parquet",
          "nested_lists.snappy.parquet",
          "nested_maps.snappy.parquet",
          "nulls.snappy.parquet",
          "page_v2_empty_compressed.parquet",
          "rle-dict-snappy-checksum.parquet",
          "rle_boolean_encoding.parquet",
          "single_nan.parquet",
          "sort_columns.parquet");

  @Test
  void everyCompressedPageMatchesParquetJava() throws Exception {
    CodecFactory factory = new CodecFactory(new Configuration(), 1 << 20);
    Map<CompressionCodec, Integer> pagesPerCodec = new EnumMap<>(CompressionCodec.class);
    Map<CompressionCodec, Decompressor> ours = new EnumMap<>(CompressionCodec.class);
    try {
      for (String file : FILES) {
        for (CorpusPages.Page page : CorpusPages.pages(file)) {
          CompressionCodec codec = page.codec();
          if (codec == CompressionCodec.UNCOMPRESSED) {
            continue;
          }
          Decompressor decompressor = ours.get(codec);
          if (decompressor == null) {
            decompressor = Codecs.decompressor(codec);
            ours.put(codec, decompressor);
          }
          byte[] back = new byte[page.uncompressedSize()];
          decompressor.decompress(
              page.fileBytes(), page.offset(), page.compressedSize(), back, 0, back.length);
          byte[] expected =
              ParquetJavaCrossCheckTest.bytes(
                  factory
                      .getDecompressor(CompressionCodecName.valueOf(codec.name()))
                      .decompress(
                          BytesInput.from(page.fileBytes(), page.offset(), page.compressedSize()),
                          page.uncompressedSize()));
          assertArrayEquals(expected, back, page.toString());
          pagesPerCodec.merge(codec, 1, Integer::sum);
        }
      }
    } finally {
      for (Decompressor decompressor : ours.values()) {
        decompressor.close();
      }
      factory.release();
    }
    for (CompressionCodec codec :
        List.of(
            CompressionCodec.SNAPPY,
            CompressionCodec.GZIP,
            CompressionCodec.ZSTD,
            CompressionCodec.LZ4,
            CompressionCodec.LZ4_RAW)) {
      assertTrue(pagesPerCodec.getOrDefault(codec, 0) > 0, "no " + codec + " page in the corpus");
    }
  }
}
