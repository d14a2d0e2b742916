package dev.parquetconnect.format.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.DataPageHeader;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PageHeader;
import dev.parquetconnect.format.meta.PageType;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Page layouts the writers at hand do not produce, built page by page: v2 pages stored uncompressed
 * inside a compressed chunk, all-null v2 pages of zero bytes, index pages, a dictionary found
 * without the metadata pointing at it, and headers that contradict the chunk.
 */
class HandBuiltPagesTest {
  @TempDir Path dir;

  /** Reads a valid hand-built file with ours and checks parquet-java reads the same. */
  private List<Object> readAndCompare(byte[] file) throws Exception {
    List<Object> ours = read(file);
    Path path = dir.resolve("tiny.parquet");
    Files.write(path, file);
    List<Object> theirs = new ArrayList<>();
    for (Row row : ParquetJavaOracle.read(path, TinyFile.SCHEMA)) {
      theirs.add(row.get(0));
    }
    assertEquals(theirs, ours, "ours vs parquet-java");
    return ours;
  }

  private static List<Object> read(byte[] file) throws Exception {
    List<Object> xs = new ArrayList<>();
    try (ParquetFileReader reader = ParquetFileReader.open(new MemoryInput(file, "tiny"));
        RowReader rows = reader.rowReader()) {
      while (rows.hasNext()) {
        Row row = rows.next();
        xs.add(row.get(0));
      }
    }
    return xs;
  }

  private static CorruptDataException corrupt(byte[] file, String fragment) {
    CorruptDataException e = assertThrows(CorruptDataException.class, () -> read(file));
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
    assertEquals("x", e.column(), e.getMessage());
    assertEquals("tiny", e.file());
    return e;
  }

  @Test
  void v2PagesMayStoreValuesUncompressedInACompressedChunk() throws Exception {
    byte[] file =
        new TinyFile(CompressionCodec.SNAPPY)
            .v2(new int[] {1, 0, 1}, new int[] {10, 11}, false, 1)
            .v2(new int[] {1, 1}, new int[] {12, 13}, true, 0)
            .v2(new int[] {0, 0, 0}, new int[0], false, 3)
            .v1(new int[] {0, 1}, new int[] {14})
            .build(10);
    assertEquals(
        Arrays.asList(10, null, 11, 12, 13, null, null, null, null, 14), readAndCompare(file));
  }

  @Test
  void allNullV2PageOfZeroBytes() throws Exception {
    byte[] file =
        new TinyFile(CompressionCodec.ZSTD)
            .v2(new int[] {0, 0, 0, 0}, new int[0], true, 4)
            .build(4);
    assertEquals(Arrays.asList(null, null, null, null), readAndCompare(file));
  }

  @Test
  void indexPagesAreSkipped() throws Exception {
    byte[] file =
        new TinyFile(CompressionCodec.UNCOMPRESSED)
            .v1(new int[] {1}, new int[] {1})
            .index(new byte[] {1, 2, 3, 4, 5})
            .v1(new int[] {1}, new int[] {2})
            .build(2);
    assertEquals(List.of(1, 2), readAndCompare(file));
  }

  @Test
  void aDictionaryPageIsFoundAtTheDataPageOffset() throws Exception {
    byte[] file =
        new TinyFile(CompressionCodec.GZIP)
            .dictionary(new int[] {100, 200, 300})
            .v1Indices(new int[] {2, 0, 1, 2})
            .build(4);
    assertEquals(List.of(300, 100, 200, 300), readAndCompare(file));
  }

  @Test
  void dictionaryPagesOnlyComeFirst() {
    corrupt(
        new TinyFile(CompressionCodec.UNCOMPRESSED)
            .v1(new int[] {1}, new int[] {1})
            .dictionary(new int[] {5})
            .v1Indices(new int[] {0})
            .build(2),
        "dictionary page after");
    corrupt(
        new TinyFile(CompressionCodec.UNCOMPRESSED)
            .dictionary(new int[] {5})
            .dictionary(new int[] {6})
            .v1Indices(new int[] {0})
            .build(1),
        "dictionary page after");
    corrupt(
        new TinyFile(CompressionCodec.UNCOMPRESSED).v1Indices(new int[] {0}).build(1),
        "no dictionary page");
  }

  @Test
  void v2CountsMustMatchTheLevels() {
    CorruptDataException e =
        corrupt(
            new TinyFile(CompressionCodec.SNAPPY)
                .v2(new int[] {1, 0, 1}, new int[] {1, 2}, true, 0)
                .v1(new int[] {1}, new int[] {3})
                .build(4),
            "announces 0 nulls");
    assertEquals(4, e.offset());
  }

  @Test
  void headersMustFitTheChunk() {
    byte[] huge =
        new TinyFile(CompressionCodec.UNCOMPRESSED)
            .raw(
                new PageHeader(
                    PageType.DATA_PAGE,
                    1 << 20,
                    1 << 20,
                    null,
                    new DataPageHeader(1, Encoding.PLAIN, Encoding.RLE, Encoding.RLE, null),
                    null,
                    null,
                    null),
                new byte[10])
            .build(1, 1);
    corrupt(huge, "runs past the end of the column chunk");
    byte[] wrongHeader =
        new TinyFile(CompressionCodec.UNCOMPRESSED)
            .raw(
                new PageHeader(PageType.DATA_PAGE, 4, 4, null, null, null, null, null), new byte[4])
            .build(1, 1);
    corrupt(wrongHeader, "without a data_page_header");
    byte[] sizes =
        new TinyFile(CompressionCodec.UNCOMPRESSED)
            .raw(
                new PageHeader(
                    PageType.DATA_PAGE,
                    9,
                    8,
                    null,
                    new DataPageHeader(1, Encoding.PLAIN, Encoding.RLE, Encoding.RLE, null),
                    null,
                    null,
                    null),
                new byte[8])
            .build(1, 1);
    corrupt(sizes, "announces 9 uncompressed bytes");
  }
}
