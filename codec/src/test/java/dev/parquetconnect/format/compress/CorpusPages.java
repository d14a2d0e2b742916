package dev.parquetconnect.format.compress;

import dev.parquetconnect.format.meta.CompressionCodec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;

/**
 * The compressed sections of every page in a corpus file, located with parquet-java's footer and
 * page-header readers (the test oracle; our own readers live in other packages).
 */
final class CorpusPages {
  /** One page's compressed section: for v2 pages, what follows the uncompressed levels. */
  record Page(
      String file,
      String column,
      CompressionCodec codec,
      String type,
      byte[] fileBytes,
      int offset,
      int compressedSize,
      int uncompressedSize) {
    @Override
    public String toString() {
      return file + " " + column + " " + type + " at " + offset;
    }
  }

  private CorpusPages() {}

  static Path corpusFile(String name) {
    return Paths.get(System.getProperty("shared.dir"), "parquet-testing", "data", name);
  }

  static List<Page> pages(String name) throws IOException {
    Path path = corpusFile(name);
    byte[] bytes = Files.readAllBytes(path);
    List<Page> pages = new ArrayList<>();
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(path))) {
      for (BlockMetaData block : reader.getFooter().getBlocks()) {
        for (ColumnChunkMetaData column : block.getColumns()) {
          CompressionCodec codec = CompressionCodec.valueOf(column.getCodec().name());
          long pos = column.getStartingPos();
          long end = pos + column.getTotalSize();
          while (pos < end) {
            ByteArrayInputStream in = new ByteArrayInputStream(bytes, (int) pos, (int) (end - pos));
            int before = in.available();
            PageHeader header = Util.readPageHeader(in);
            int dataStart = (int) pos + before - in.available();
            int compressed = header.getCompressed_page_size();
            int uncompressed = header.getUncompressed_page_size();
            int skip = 0;
            boolean isCompressed = true;
            if (header.isSetData_page_header_v2()) {
              var v2 = header.getData_page_header_v2();
              skip = v2.getRepetition_levels_byte_length() + v2.getDefinition_levels_byte_length();
              isCompressed = !v2.isSetIs_compressed() || v2.isIs_compressed();
            }
            pages.add(
                new Page(
                    name,
                    column.getPath().toDotString(),
                    isCompressed ? codec : CompressionCodec.UNCOMPRESSED,
                    header.getType().name(),
                    bytes,
                    dataStart + skip,
                    compressed - skip,
                    uncompressed - skip));
            pos = dataStart + (long) compressed;
          }
        }
      }
    }
    return pages;
  }
}
