package dev.parquetconnect.format.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.ColumnMetaData;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.MetadataCodec;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.meta.SchemaElement;
import dev.parquetconnect.format.oracle.ParquetJavaFeatureWriter;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaConverter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files whose bytes or metadata lie, built by editing a good file: every lie is a checked error
 * naming what is wrong and where, found before anything is allocated or read for it; and what the
 * reader fetches (one tail read for the footer, only the projected chunks, each byte once).
 */
class ReaderRobustnessTest {
  private static final MessageType SCHEMA = ReadTestData.schema();
  private static byte[] good;
  private static List<Row> goodRows;

  @BeforeAll
  static void writeGoodFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("good.parquet");
    goodRows = ReadTestData.rows(SCHEMA, 400, 5);
    ParquetJavaFeatureWriter.write(
        file,
        SCHEMA,
        goodRows,
        b ->
            b.withCompressionCodec(CompressionCodecName.SNAPPY)
                .withPageWriteChecksumEnabled(true)
                .withPageSize(1024)
                .withRowGroupSize(48 * 1024));
    good = Files.readAllBytes(file);
  }

  private static List<Row> read(byte[] file) throws Exception {
    return read(file, ReadOptions.defaults());
  }

  private static List<Row> read(byte[] file, ReadOptions options) throws Exception {
    try (ParquetFileReader reader = ParquetFileReader.open(new MemoryInput(file, "mem"), options);
        RowReader rows = reader.rowReader()) {
      List<Row> out = new ArrayList<>();
      while (rows.hasNext()) {
        out.add(rows.next());
      }
      return out;
    }
  }

  private static <T extends ParquetException> T fails(
      Class<T> type, String fragment, Executable read) {
    T e = assertThrows(type, read);
    assertTrue(e.getMessage().contains(fragment), "'" + fragment + "' not in: " + e.getMessage());
    assertEquals("mem", e.file(), e.getMessage());
    return e;
  }

  @Test
  void theGoodFileReads() throws Exception {
    assertEquals(goodRows, read(good));
  }

  @Test
  void footerComesFromOneReadOfTheTail() throws Exception {
    int footerLength = MetadataCodec.footerLength(good, good.length - 8, good.length);
    MemoryInput input = new MemoryInput(good, "mem");
    ReadOptions options = ReadOptions.defaults().withFooterReadSize(footerLength + 8);
    try (ParquetFileReader reader = ParquetFileReader.open(input, options)) {
      // The tail, then the 4-byte leading magic.
      assertEquals(2, input.reads.size());
      assertEquals(good.length - footerLength - 8, input.reads.get(0)[0]);
      assertEquals(4, input.reads.get(1)[1]);
      assertEquals(SCHEMA.toString(), reader.schema().toString());
    }
    MemoryInput small = new MemoryInput(good, "mem");
    try (ParquetFileReader reader =
        ParquetFileReader.open(small, ReadOptions.defaults().withFooterReadSize(16))) {
      assertEquals(3, small.reads.size(), "tail, magic, then the rest of a long footer");
      assertEquals(footerLength + 8 + 4, small.bytesRead());
      assertEquals(SCHEMA.toString(), reader.schema().toString());
    }
  }

  @Test
  void truncatedOrMislabelledFilesAreCorrupt() throws Exception {
    for (int n = 0; n < 12; n++) {
      byte[] tiny = Arrays.copyOf(good, n);
      fails(CorruptDataException.class, "not a Parquet file", () -> read(tiny));
    }
    byte[] badHead = good.clone();
    badHead[0] = 'X';
    fails(CorruptDataException.class, "does not start with the magic", () -> read(badHead));
    byte[] badTail = good.clone();
    badTail[badTail.length - 1] = 'X';
    fails(CorruptDataException.class, "PAR1", () -> read(badTail));
    byte[] longFooter = good.clone();
    LittleEndian.putInt(longFooter, longFooter.length - 8, longFooter.length);
    fails(CorruptDataException.class, "footer length", () -> read(longFooter));
    byte[] garbage = good.clone();
    int footerLength = MetadataCodec.footerLength(good, good.length - 8, good.length);
    Arrays.fill(garbage, good.length - 8 - footerLength, good.length - 8, (byte) 0x7f);
    CorruptDataException e = fails(CorruptDataException.class, "footer", () -> read(garbage));
    assertEquals(good.length - 8 - footerLength, e.offset());
    fails(
        UnsupportedFeatureException.class,
        "maxFooterSize",
        () -> read(good, ReadOptions.defaults().withMaxFooterSize(footerLength - 1)));
  }

  @Test
  void encryptedMagicIsRefused() {
    byte[] tail = good.clone();
    System.arraycopy("PARE".getBytes(StandardCharsets.US_ASCII), 0, tail, tail.length - 4, 4);
    fails(
        UnsupportedFeatureException.class,
        "encrypted Parquet files are not supported",
        () -> read(tail));
    byte[] head = good.clone();
    System.arraycopy("PARE".getBytes(StandardCharsets.US_ASCII), 0, head, 0, 4);
    fails(
        UnsupportedFeatureException.class,
        "encrypted Parquet files are not supported",
        () -> read(head));
  }

  @Test
  void chunkLayoutIsCheckedBeforeAnyPageIsRead() throws Exception {
    long footerStart =
        good.length - 8 - MetadataCodec.footerLength(good, good.length - 8, good.length);
    ColumnMetaData first =
        FooterSurgery.footer(good).rowGroups().get(0).columns().get(1).metaData();
    checkLayout(
        FooterSurgery.editMeta(
            good,
            0,
            1,
            m ->
                FooterSurgery.withLayout(
                    m, m.numValues(), footerStart, null, m.totalCompressedSize())),
        "data region");
    checkLayout(
        FooterSurgery.editMeta(
            good,
            0,
            1,
            m ->
                FooterSurgery.withLayout(
                    m, m.numValues(), m.dataPageOffset(), m.dictionaryPageOffset(), good.length)),
        "data region");
    checkLayout(
        FooterSurgery.editMeta(
            good,
            0,
            2,
            m ->
                FooterSurgery.withLayout(
                    m, m.numValues(), first.dataPageOffset(), null, m.totalCompressedSize())),
        "overlaps");
    checkLayout(
        FooterSurgery.editMeta(
            good,
            0,
            1,
            m -> FooterSurgery.withLayout(m, m.numValues(), 0, null, m.totalCompressedSize())),
        "leading magic");
    checkLayout(
        FooterSurgery.editMeta(
            good,
            0,
            1,
            m ->
                FooterSurgery.withLayout(
                    m, -1, m.dataPageOffset(), m.dictionaryPageOffset(), m.totalCompressedSize())),
        "negative");
    checkLayout(
        FooterSurgery.editMeta(good, 0, 1, m -> FooterSurgery.withType(m, PhysicalType.DOUBLE)),
        "holds DOUBLE");
    checkLayout(
        FooterSurgery.editRowGroup(
            good,
            0,
            g ->
                new RowGroup(
                    g.columns().subList(1, g.columns().size()),
                    g.totalByteSize(),
                    g.numRows(),
                    g.sortingColumns(),
                    g.fileOffset(),
                    g.totalCompressedSize(),
                    g.ordinal())),
        "column chunks but the schema has");
    checkLayout(
        FooterSurgery.editRowGroup(
            good, 0, g -> new RowGroup(g.columns(), g.totalByteSize(), -5, null, null, null, null)),
        "negative row count");
    byte[] external =
        FooterSurgery.editChunk(
            good,
            0,
            1,
            c ->
                new ColumnChunk(
                    "other.parquet",
                    c.fileOffset(),
                    c.metaData(),
                    null,
                    null,
                    null,
                    null,
                    null,
                    null));
    UnsupportedFeatureException e =
        fails(UnsupportedFeatureException.class, "another file", () -> read(external));
    assertEquals(SCHEMA.column(1).dottedPath(), e.column());
  }

  private static void checkLayout(byte[] file, String fragment) {
    MemoryInput input = new MemoryInput(file, "mem");
    fails(CorruptDataException.class, fragment, () -> ParquetFileReader.open(input));
    assertTrue(input.reads.size() <= 2, "failed on the footer alone, before reading pages");
  }

  @Test
  void countsMustAgree() throws Exception {
    fails(
        CorruptDataException.class,
        "rows but its row group has",
        () ->
            read(
                FooterSurgery.editRowGroup(
                    good,
                    0,
                    g ->
                        new RowGroup(
                            g.columns(),
                            g.totalByteSize(),
                            g.numRows() + 1,
                            null,
                            null,
                            null,
                            null))));
    fails(
        CorruptDataException.class,
        "ends after",
        () ->
            read(
                FooterSurgery.editMeta(
                    good,
                    0,
                    0,
                    m ->
                        FooterSurgery.withLayout(
                            m,
                            m.numValues() + 1,
                            m.dataPageOffset(),
                            m.dictionaryPageOffset(),
                            m.totalCompressedSize()))));
    CorruptDataException e =
        fails(
            CorruptDataException.class,
            "of the chunk's",
            () ->
                read(
                    FooterSurgery.editMeta(
                        good,
                        0,
                        0,
                        m ->
                            FooterSurgery.withLayout(
                                m,
                                m.numValues() - 1,
                                m.dataPageOffset(),
                                m.dictionaryPageOffset(),
                                m.totalCompressedSize()))));
    assertEquals("id", e.column());
    assertTrue(e.offset() >= 4, e.getMessage());
  }

  @Test
  void pagesAboveTheLimitsAreRefused() {
    UnsupportedFeatureException big =
        fails(
            UnsupportedFeatureException.class,
            "maxPageSize",
            () -> read(good, ReadOptions.defaults().withMaxPageSize(64)));
    assertTrue(big.column() != null && big.offset() >= 4, big.getMessage());
    CorruptDataException header =
        fails(
            CorruptDataException.class,
            "maxPageHeaderSize",
            () -> read(good, ReadOptions.defaults().withMaxPageHeaderSize(6)));
    assertTrue(header.column() != null && header.offset() >= 4, header.getMessage());
  }

  @Test
  void crcMismatchNamesTheColumnAndThePage() throws Exception {
    ColumnDescriptor column = SCHEMA.column("f64");
    ColumnMetaData meta =
        FooterSurgery.footer(good).rowGroups().get(0).columns().get(column.index()).metaData();
    long pageOffset =
        meta.dictionaryPageOffset() != null && meta.dictionaryPageOffset() > 0
            ? meta.dictionaryPageOffset()
            : meta.dataPageOffset();
    int headerLength = MetadataCodec.readPageHeader(good, (int) pageOffset, 1024).length();
    byte[] damaged = good.clone();
    damaged[(int) pageOffset + headerLength + 1] ^= 0x10;
    CorruptDataException e =
        fails(CorruptDataException.class, "page CRC mismatch", () -> read(damaged));
    assertEquals("f64", e.column());
    assertEquals(pageOffset, e.offset());
    // Without verification the damage goes unnoticed or shows as another error, never CRC.
    try {
      read(damaged, ReadOptions.defaults().withVerifyChecksums(false));
    } catch (ParquetException other) {
      assertFalse(other.getMessage().contains("CRC"), other.getMessage());
    }
  }

  @Test
  void aProjectionFetchesOnlyItsChunksAndEachByteOnce() throws Exception {
    MemoryInput input = new MemoryInput(good, "mem");
    try (ParquetFileReader reader = ParquetFileReader.open(input)) {
      int afterFooter = input.reads.size();
      long footerBytes = input.bytesRead();
      ColumnDescriptor column = reader.schema().column("ls.list.element.y");
      long chunkBytes = 0;
      List<long[]> ranges = new ArrayList<>();
      for (RowGroup g : reader.rowGroups()) {
        ColumnMetaData m = g.columns().get(column.index()).metaData();
        long start =
            m.dictionaryPageOffset() != null && m.dictionaryPageOffset() > 0
                ? Math.min(m.dictionaryPageOffset(), m.dataPageOffset())
                : m.dataPageOffset();
        ranges.add(new long[] {start, start + m.totalCompressedSize()});
        chunkBytes += m.totalCompressedSize();
      }
      try (RowReader rows = reader.rowReader(reader.projection(List.of(column.dottedPath())))) {
        int n = 0;
        while (rows.hasNext()) {
          rows.next();
          n++;
        }
        assertEquals(goodRows.size(), n);
      }
      assertEquals(chunkBytes, input.bytesRead() - footerBytes, "each chunk byte read once");
      for (long[] read : input.reads.subList(afterFooter, input.reads.size())) {
        assertTrue(
            ranges.stream().anyMatch(r -> read[0] >= r[0] && read[0] + read[1] <= r[1]),
            "read [" + read[0] + ", +" + read[1] + ") outside the projected chunks");
      }
      assertTrue(
          input.reads.size() - afterFooter <= reader.rowGroups().size() * 40,
          "about one read per page: " + (input.reads.size() - afterFooter));
    }
  }

  @Test
  void aMissingDictionaryPageOffsetStillFindsTheDictionary() throws Exception {
    FileMetaData m = FooterSurgery.footer(good);
    byte[] file = good;
    int edited = 0;
    for (int g = 0; g < m.rowGroups().size(); g++) {
      for (int c = 0; c < SCHEMA.columns().size(); c++) {
        ColumnMetaData meta = m.rowGroups().get(g).columns().get(c).metaData();
        if (meta.dictionaryPageOffset() != null && meta.dictionaryPageOffset() > 0) {
          long dictionary = meta.dictionaryPageOffset();
          file =
              FooterSurgery.editMeta(
                  file,
                  g,
                  c,
                  x ->
                      FooterSurgery.withLayout(
                          x, x.numValues(), dictionary, null, x.totalCompressedSize()));
          edited++;
        }
      }
    }
    assertTrue(edited > 10, "dictionary chunks edited: " + edited);
    assertEquals(goodRows, read(file));
  }

  @Test
  void recordsLargerThanTheLimitAreRefused() throws Exception {
    fails(
        UnsupportedFeatureException.class,
        "maxRecordValues",
        () -> read(good, ReadOptions.defaults().withMaxRecordValues(10)));
  }

  /** Found by the fuzz test: nested groups using up the elements their parent counted on. */
  @Test
  void schemaWhoseGroupsOverclaimChildrenIsCorrupt() {
    List<SchemaElement> elements =
        List.of(
            new SchemaElement(null, null, null, "root", 2, null, null, null, null, null),
            new SchemaElement(
                null, null, FieldRepetitionType.OPTIONAL, "g", 2, null, null, null, null, null),
            leaf("a"),
            leaf("b"));
    assertThrows(CorruptDataException.class, () -> SchemaConverter.fromSchemaElements(elements));
  }

  private static SchemaElement leaf(String name) {
    return new SchemaElement(
        PhysicalType.INT32,
        null,
        FieldRepetitionType.REQUIRED,
        name,
        null,
        null,
        null,
        null,
        null,
        null);
  }

  @Test
  void oldParquetMrChunkSizesAreRecognised() {
    assertTrue(ChunkLayout.undercountsDictionaryHeaders("parquet-mr"));
    assertTrue(ChunkLayout.undercountsDictionaryHeaders("parquet-mr version 1.2.8 (build x)"));
    assertTrue(ChunkLayout.undercountsDictionaryHeaders("parquet-mr version 1.1.0"));
    assertFalse(ChunkLayout.undercountsDictionaryHeaders("parquet-mr version 1.2.9 (build x)"));
    assertFalse(ChunkLayout.undercountsDictionaryHeaders("parquet-mr version 1.10.0 (build x)"));
    assertFalse(ChunkLayout.undercountsDictionaryHeaders("parquet-cpp-arrow version 14.0.2"));
    assertFalse(ChunkLayout.undercountsDictionaryHeaders(null));
  }
}
