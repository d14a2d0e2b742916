package dev.parquetconnect.format.meta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.GrowableBuffer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every file of the parquet-testing corpus (data and bad_data): our footer reader against
 * parquet-java's {@code Util.readFileMetaData}, and, where the footer reads, every page header,
 * column index, offset index and bloom filter header the footer points at.
 */
class ParquetTestingCorpusTest {
  private static final Logger LOG = LoggerFactory.getLogger(ParquetTestingCorpusTest.class);

  private static final int MAX_PAGES_PER_CHUNK = 500;
  private static final AtomicInteger PAGES_COMPARED = new AtomicInteger();
  private static final AtomicInteger INDEXES_COMPARED = new AtomicInteger();

  static Path corpus() {
    return Path.of(System.getProperty("shared.dir", "../shared"), "parquet-testing");
  }

  static List<Path> files() throws IOException {
    List<Path> files = new ArrayList<>();
    for (String dir : new String[] {"data", "bad_data"}) {
      try (Stream<Path> walk = Files.walk(corpus().resolve(dir))) {
        files.addAll(walk.filter(Files::isRegularFile).sorted().collect(Collectors.toList()));
      }
    }
    return files;
  }

  /** The footer bytes of a well-formed file (trailer checked by our code), else null. */
  static byte[] footerOrNull(byte[] file) {
    if (file.length < MetadataCodec.TRAILER_LENGTH) {
      return null;
    }
    try {
      int length = MetadataCodec.footerLength(file, file.length - 8, file.length);
      int start = file.length - 8 - length;
      byte[] footer = new byte[length];
      System.arraycopy(file, start, footer, 0, length);
      return footer;
    } catch (ParquetException e) {
      return null;
    }
  }

  @Test
  void corpusIsThere() throws IOException {
    assertTrue(files().size() > 60, "parquet-testing corpus not found under " + corpus());
  }

  /** Guards against the walk silently comparing nothing (a wrong offset rule, a moved corpus). */
  @AfterAll
  static void enoughWasCompared() {
    LOG.info(
        "corpus: "
            + PAGES_COMPARED
            + " page headers, "
            + INDEXES_COMPARED
            + " page indexes and bloom headers compared");
    if (PAGES_COMPARED.get() > 0) {
      assertTrue(PAGES_COMPARED.get() > 1000, "only " + PAGES_COMPARED + " page headers compared");
      assertTrue(INDEXES_COMPARED.get() > 50, "only " + INDEXES_COMPARED + " indexes compared");
    }
  }

  @ParameterizedTest
  @MethodSource("files")
  void footerAgreesWithParquetJava(Path path) throws Exception {
    byte[] file = Files.readAllBytes(path);
    String name = path.getFileName().toString();
    String magic =
        file.length >= 4 ? new String(file, file.length - 4, 4, StandardCharsets.US_ASCII) : "";
    if (file.length >= 8 && magic.equals("PARE")) {
      UnsupportedFeatureException e =
          assertThrows(
              UnsupportedFeatureException.class,
              () -> MetadataCodec.footerLength(file, file.length - 8, file.length));
      assertTrue(e.getMessage().contains("encrypt"), e.getMessage());
      return;
    }
    byte[] footer = footerOrNull(file);
    if (footer == null) {
      // Not a Parquet file (csv, json, bare bloom filter) or a broken trailer: a checked error.
      assertTrue(!magic.equals("PAR1") || file.length < 12 || brokenLength(file), name);
      assertThrows(
          CorruptDataException.class,
          () ->
              MetadataCodec.footerLength(
                  padTo8(file), Math.max(0, padTo8(file).length - 8), file.length));
      return;
    }

    org.apache.parquet.format.FileMetaData theirs = null;
    Exception theirError = null;
    try {
      theirs = org.apache.parquet.format.Util.readFileMetaData(new ByteArrayInputStream(footer));
    } catch (IOException | RuntimeException e) {
      theirError = e;
    }
    FileMetaData ours = null;
    ParquetException ourError = null;
    try {
      ours = MetadataCodec.readFileMetaData(footer, 0, footer.length);
    } catch (ParquetException e) {
      ourError = e;
    }

    if (theirs == null) {
      LOG.info(
          "corpus: "
              + name
              + ": parquet-java rejects the footer ("
              + theirError
              + "); we say: "
              + ourError);
      assertNotNull(
          ourError,
          name + ": parquet-java rejects the footer (" + theirError + ") but we accept it");
      return;
    }
    assertNotNull(
        ours, () -> name + ": parquet-java reads the footer, we fail: " + ourErrorText(footer));
    // The brief's minimum, asserted on its own for clear failure messages...
    assertEquals(theirs.getNum_rows(), ours.numRows(), name);
    assertEquals(theirs.getRow_groups().size(), ours.rowGroups().size(), name);
    for (int i = 0; i < ours.schema().size(); i++) {
      assertEquals(theirs.getSchema().get(i).getName(), ours.schema().get(i).name(), name);
      assertEquals(
          theirs.getSchema().get(i).isSetType(), ours.schema().get(i).type() != null, name);
    }
    // ...then everything, field by field.
    assertEquals(OracleConverter.fromOracle(theirs), CorpusNormalizer.asOracleSees(ours), name);

    if (!CorpusNormalizer.hasNewerContent(ours)) {
      ByteArrayOutputStream theirBytes = new ByteArrayOutputStream();
      org.apache.parquet.format.Util.writeFileMetaData(theirs, theirBytes);
      GrowableBuffer ourBytes = new GrowableBuffer();
      MetadataCodec.write(ours, ourBytes);
      assertArrayEquals(theirBytes.toByteArray(), ourBytes.toByteArray(), name);
    }
  }

  /** What parquet-java 1.16 cannot show, checked against the corpus's documented content. */
  @Test
  void featuresNewerThanTheOracleReadAsDocumented() throws Exception {
    FileMetaData unknown = read("unknown-logical-type.parquet");
    assertEquals(LogicalType.STRING, unknown.schema().get(1).logicalType());
    LogicalType unrecognized = unknown.schema().get(2).logicalType();
    assertTrue(unrecognized instanceof LogicalType.Unrecognized, String.valueOf(unrecognized));
    assertTrue(unrecognized.fieldId() > 19, String.valueOf(unrecognized));

    FileMetaData floating = read("floating_orders_nan_count.parquet");
    assertTrue(floating.columnOrders().contains(ColumnOrder.IEEE_754_TOTAL));
    assertEquals(
        0L, floating.rowGroups().get(0).columns().get(0).metaData().statistics().nanCount());

    Statistics truncated =
        read("binary_truncated_min_max.parquet")
            .rowGroups()
            .get(0)
            .columns()
            .get(0)
            .metaData()
            .statistics();
    assertEquals(Boolean.FALSE, truncated.isMaxValueExact());
    assertEquals(Boolean.FALSE, truncated.isMinValueExact());

    FileMetaData plaintextFooter = read("encrypt_columns_plaintext_footer.parquet.encrypted");
    assertTrue(plaintextFooter.usesEncryption());
    assertEquals(EncryptionAlgorithm.Kind.AES_GCM_V1, plaintextFooter.encryptionAlgorithm().kind());
    assertTrue(!read("alltypes_plain.parquet").usesEncryption());
  }

  private static FileMetaData read(String name) throws Exception {
    byte[] file = Files.readAllBytes(corpus().resolve("data").resolve(name));
    byte[] footer = footerOrNull(file);
    assertNotNull(footer, name);
    return MetadataCodec.readFileMetaData(footer, 0, footer.length);
  }

  @ParameterizedTest
  @MethodSource("files")
  void pageHeadersAndIndexesAgreeWithParquetJava(Path path) throws Exception {
    byte[] file = Files.readAllBytes(path);
    String name = path.getFileName().toString();
    byte[] footer = footerOrNull(file);
    if (footer == null) {
      return;
    }
    FileMetaData metadata;
    try {
      metadata = MetadataCodec.readFileMetaData(footer, 0, footer.length);
    } catch (ParquetException e) {
      return;
    }
    if (metadata.usesEncryption()) {
      return;
    }
    for (RowGroup rowGroup : metadata.rowGroups()) {
      for (ColumnChunk chunk : rowGroup.columns()) {
        ColumnMetaData column = chunk.metaData();
        if (column == null) {
          continue;
        }
        String where = name + " " + String.join(".", column.pathInSchema());
        walkPages(file, column, where);
        if (chunk.columnIndexOffset() != null && chunk.columnIndexLength() != null) {
          compareColumnIndex(file, chunk.columnIndexOffset(), chunk.columnIndexLength(), where);
        }
        if (chunk.offsetIndexOffset() != null && chunk.offsetIndexLength() != null) {
          compareOffsetIndex(file, chunk.offsetIndexOffset(), chunk.offsetIndexLength(), where);
        }
        if (column.bloomFilterOffset() != null) {
          compareBloomHeader(file, column.bloomFilterOffset(), where);
        }
      }
    }
  }

  private static void walkPages(byte[] file, ColumnMetaData column, String where) throws Exception {
    long start = column.dataPageOffset();
    Long dictionary = column.dictionaryPageOffset();
    if (dictionary != null && dictionary > 0 && dictionary < start) {
      start = dictionary;
    }
    long end = Math.min(file.length, start + Math.max(0, column.totalCompressedSize()));
    long pos = start;
    for (int page = 0; page < MAX_PAGES_PER_CHUNK && pos >= 0 && pos < end; page++) {
      int off = (int) pos;
      int len = file.length - off;
      ByteArrayInputStream theirStream = new ByteArrayInputStream(file, off, len);
      org.apache.parquet.format.PageHeader theirs;
      try {
        theirs = org.apache.parquet.format.Util.readPageHeader(theirStream);
      } catch (IOException | RuntimeException e) {
        assertThrows(
            ParquetException.class,
            () -> MetadataCodec.readPageHeader(file, off, len),
            where + " page at " + off + ": parquet-java rejects it (" + e + ")");
        return;
      }
      int theirLength = len - theirStream.available();
      Decoded<PageHeader> ours = MetadataCodec.readPageHeader(file, off, len);
      assertEquals(OracleConverter.fromOracle(theirs), ours.value(), where + " page at " + off);
      assertEquals(theirLength, ours.length(), where + " page at " + off);

      ByteArrayInputStream ourStream = new ByteArrayInputStream(file, off, len);
      assertEquals(ours.value(), MetadataCodec.readPageHeader(ourStream), where);
      assertEquals(theirLength, len - ourStream.available(), where + " stream consumption");

      PAGES_COMPARED.incrementAndGet();
      pos += ours.length() + (long) ours.value().compressedPageSize();
    }
  }

  private static void compareColumnIndex(byte[] file, long offset, int length, String where)
      throws Exception {
    if (offset < 0 || length < 0 || offset + length > file.length) {
      return;
    }
    org.apache.parquet.format.ColumnIndex theirs =
        org.apache.parquet.format.Util.readColumnIndex(
            new ByteArrayInputStream(file, (int) offset, length));
    ColumnIndex ours = MetadataCodec.readColumnIndex(file, (int) offset, length);
    assertEquals(
        OracleConverter.fromOracle(theirs), CorpusNormalizer.withoutNanCounts(ours), where);
    INDEXES_COMPARED.incrementAndGet();
  }

  private static void compareOffsetIndex(byte[] file, long offset, int length, String where)
      throws Exception {
    if (offset < 0 || length < 0 || offset + length > file.length) {
      return;
    }
    org.apache.parquet.format.OffsetIndex theirs =
        org.apache.parquet.format.Util.readOffsetIndex(
            new ByteArrayInputStream(file, (int) offset, length));
    OffsetIndex ours = MetadataCodec.readOffsetIndex(file, (int) offset, length);
    assertEquals(OracleConverter.fromOracle(theirs), ours, where);
    INDEXES_COMPARED.incrementAndGet();
  }

  private static void compareBloomHeader(byte[] file, long offset, String where) throws Exception {
    if (offset < 0 || offset >= file.length) {
      return;
    }
    int len = file.length - (int) offset;
    ByteArrayInputStream stream = new ByteArrayInputStream(file, (int) offset, len);
    org.apache.parquet.format.BloomFilterHeader theirs =
        org.apache.parquet.format.Util.readBloomFilterHeader(stream);
    Decoded<BloomFilterHeader> ours = MetadataCodec.readBloomFilterHeader(file, (int) offset, len);
    assertEquals(OracleConverter.fromOracle(theirs), ours.value(), where);
    assertEquals(len - stream.available(), ours.length(), where);
    INDEXES_COMPARED.incrementAndGet();
  }

  private static boolean brokenLength(byte[] file) {
    long length =
        dev.parquetconnect.format.io.LittleEndian.getInt(file, file.length - 8) & 0xFFFFFFFFL;
    return length > file.length - 12;
  }

  private static byte[] padTo8(byte[] file) {
    if (file.length >= 8) {
      return file;
    }
    return new byte[8];
  }

  private static String ourErrorText(byte[] footer) {
    try {
      MetadataCodec.readFileMetaData(footer, 0, footer.length);
      return "no error";
    } catch (ParquetException e) {
      return e.toString();
    }
  }
}
