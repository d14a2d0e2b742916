package dev.parquetconnect.bench.codec;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.MetadataCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.KeyValue;
import org.apache.parquet.format.PageEncodingStats;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Statistics;
import org.apache.parquet.format.Type;
import org.apache.parquet.format.Util;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Footer decode: a FileMetaData of 50 row groups of 100 columns (INT64, DOUBLE, INT32 and string
 * columns), each column chunk with its ColumnMetaData (encodings, path, sizes, offsets, page
 * encoding stats), min/max/null-count statistics and column/offset index locations, plus a schema
 * of 101 elements and a key/value entry; serialized by parquet-java (about 1 MB). Ours: {@code
 * MetadataCodec.readFileMetaData(byte[], off, len)}; parquet-java: {@code
 * Util.readFileMetaData(InputStream)} over a {@code ByteArrayInputStream}.
 */
@State(Scope.Thread)
public class FooterDecodeBench {
  static final int ROW_GROUPS = 50;
  static final int COLUMNS = 100;

  private byte[] footer;

  @Setup
  public void setup() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FileMetaData metadata = footer();
    Util.writeFileMetaData(metadata, out);
    footer = out.toByteArray();
    // Both sides decode the same footer: same rows, row groups, columns and statistics.
    dev.parquetconnect.format.meta.FileMetaData ours;
    try {
      ours = MetadataCodec.readFileMetaData(footer, 0, footer.length);
    } catch (ParquetException e) {
      throw new IOException(e);
    }
    FileMetaData theirs = Util.readFileMetaData(new ByteArrayInputStream(footer));
    BenchData.check(theirs.equals(metadata), "FooterDecode parquet-java");
    BenchData.check(
        ours.numRows() == metadata.getNum_rows()
            && ours.schema().size() == metadata.getSchema().size()
            && ours.rowGroups().size() == ROW_GROUPS,
        "FooterDecode ours");
    for (int g = 0; g < ROW_GROUPS; g++) {
      for (int c = 0; c < COLUMNS; c++) {
        var mine = ours.rowGroups().get(g).columns().get(c).metaData();
        var reference = metadata.getRow_groups().get(g).getColumns().get(c).getMeta_data();
        BenchData.check(
            mine.totalCompressedSize() == reference.getTotal_compressed_size()
                && java.util.Arrays.equals(
                    mine.statistics().maxValue().toByteArray(),
                    reference.getStatistics().getMax_value()),
            "FooterDecode ours");
      }
    }
  }

  static FileMetaData footer() {
    SplittableRandom random = new SplittableRandom(29);
    Type[] types = {Type.INT64, Type.DOUBLE, Type.INT32, Type.BYTE_ARRAY};
    List<SchemaElement> schema = new ArrayList<>();
    schema.add(new SchemaElement("schema").setNum_children(COLUMNS));
    for (int c = 0; c < COLUMNS; c++) {
      SchemaElement column =
          new SchemaElement("column_" + c)
              .setType(types[c % 4])
              .setRepetition_type(
                  c % 3 == 0 ? FieldRepetitionType.REQUIRED : FieldRepetitionType.OPTIONAL)
              .setField_id(c + 1);
      if (types[c % 4] == Type.BYTE_ARRAY) {
        column.setConverted_type(ConvertedType.UTF8);
      }
      schema.add(column);
    }
    List<RowGroup> rowGroups = new ArrayList<>();
    long offset = 4;
    long rows = 0;
    for (int g = 0; g < ROW_GROUPS; g++) {
      long groupRows = 100_000 + random.nextInt(1000);
      List<ColumnChunk> chunks = new ArrayList<>();
      long groupBytes = 0;
      for (int c = 0; c < COLUMNS; c++) {
        Type type = types[c % 4];
        long compressed = 50_000 + random.nextInt(500_000);
        long uncompressed = compressed * 2 + random.nextInt(1000);
        ColumnMetaData meta =
            new ColumnMetaData(
                type,
                List.of(Encoding.PLAIN, Encoding.RLE, Encoding.RLE_DICTIONARY),
                List.of("column_" + c),
                CompressionCodec.ZSTD,
                groupRows,
                uncompressed,
                compressed,
                offset + 1000);
        meta.setDictionary_page_offset(offset);
        meta.setEncoding_stats(
            List.of(
                new PageEncodingStats(PageType.DICTIONARY_PAGE, Encoding.PLAIN, 1),
                new PageEncodingStats(PageType.DATA_PAGE, Encoding.RLE_DICTIONARY, 100)));
        byte[] min;
        byte[] max;
        if (type == Type.BYTE_ARRAY) {
          min = ("aardvark-" + random.nextInt(1000)).getBytes(StandardCharsets.UTF_8);
          max = ("zebra-" + random.nextInt(1000)).getBytes(StandardCharsets.UTF_8);
        } else if (type == Type.INT32) {
          min = ByteBuffer.allocate(4).putInt(Integer.reverseBytes(random.nextInt(1000))).array();
          max =
              ByteBuffer.allocate(4)
                  .putInt(Integer.reverseBytes(1000 + random.nextInt(1000)))
                  .array();
        } else {
          min =
              ByteBuffer.allocate(8).putLong(Long.reverseBytes(random.nextLong(1L << 40))).array();
          max =
              ByteBuffer.allocate(8)
                  .putLong(Long.reverseBytes((1L << 40) + random.nextLong(1L << 40)))
                  .array();
        }
        meta.setStatistics(
            new Statistics()
                .setMin_value(min)
                .setMax_value(max)
                .setNull_count(random.nextInt(1000))
                .setIs_min_value_exact(true)
                .setIs_max_value_exact(true));
        ColumnChunk chunk = new ColumnChunk(offset).setMeta_data(meta);
        chunk.setOffset_index_offset(1L << 30 | random.nextInt(1 << 20));
        chunk.setOffset_index_length(200 + random.nextInt(100));
        chunk.setColumn_index_offset(1L << 31 | random.nextInt(1 << 20));
        chunk.setColumn_index_length(300 + random.nextInt(100));
        chunks.add(chunk);
        offset += compressed;
        groupBytes += uncompressed;
      }
      rowGroups.add(
          new RowGroup(chunks, groupBytes, groupRows)
              .setFile_offset(chunks.get(0).getFile_offset())
              .setTotal_compressed_size(groupBytes / 2)
              .setOrdinal((short) g));
      rows += groupRows;
    }
    FileMetaData metadata = new FileMetaData(2, schema, rows, rowGroups);
    metadata.setCreated_by("parquet-mr version 1.16.0 (build bench)");
    metadata.setKey_value_metadata(List.of(new KeyValue("writer.model.name").setValue("example")));
    return metadata;
  }

  @Benchmark
  public Object ours() throws ParquetException {
    return MetadataCodec.readFileMetaData(footer, 0, footer.length);
  }

  @Benchmark
  public Object parquetJava() throws IOException {
    return Util.readFileMetaData(new ByteArrayInputStream(footer));
  }
}
