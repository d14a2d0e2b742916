package dev.parquetconnect.format.write;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.ColumnMetaData;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.Decoded;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.MetadataCodec;
import dev.parquetconnect.format.meta.PageHeader;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaTestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Page CRCs: parquet-java verifying checksums reads our v1 and v2 pages and dictionary pages, and
 * rejects them once a byte of a page changes, so the CRCs are both right and really checked.
 */
class PageChecksumOracleTest {
  @TempDir Path dir;

  private Path write(PageVersion version, boolean checksums) throws Exception {
    MessageType schema = SchemaTestData.sample();
    List<Row> rows = new RandomRows(version.ordinal()).rows(schema, 300);
    WriterOptions options =
        WriterOptions.builder()
            .pageVersion(version)
            .codec(CompressionCodec.SNAPPY)
            .pageRowLimit(40)
            .pageChecksums(checksums)
            .build();
    Path file = dir.resolve("crc-" + version + "-" + checksums + ".parquet");
    WriterMatrix.write(file, schema, rows, options);
    WriterMatrix.assertRowsEqual(
        rows,
        ParquetJavaOracle.read(file, schema, b -> b.usePageChecksumVerification(true)),
        "checksum-verified read");
    return file;
  }

  @ParameterizedTest
  @EnumSource(PageVersion.class)
  void parquetJavaVerifiesOurChecksumsAndCatchesAChangedByte(PageVersion version) throws Exception {
    Path file = write(version, true);
    MessageType schema = SchemaTestData.sample();
    FileMetaData footer = FooterReader.read(file);
    byte[] original = Files.readAllBytes(file);
    boolean sawDictionary = false;
    for (ColumnChunk chunk : footer.rowGroups().get(0).columns()) {
      ColumnMetaData m = chunk.metaData();
      for (Long pageOffset : new Long[] {m.dictionaryPageOffset(), m.dataPageOffset()}) {
        if (pageOffset == null) {
          continue;
        }
        Decoded<PageHeader> header =
            MetadataCodec.readPageHeader(
                original, pageOffset.intValue(), original.length - pageOffset.intValue());
        assertTrue(header.value().crc() != null, m.pathInSchema() + ": no CRC");
        sawDictionary |= header.value().dictionaryPageHeader() != null;
        byte[] damaged = original.clone();
        int body = pageOffset.intValue() + header.length();
        damaged[body + header.value().compressedPageSize() / 2] ^= 0x10;
        Path bad = dir.resolve("bad.parquet");
        Files.write(bad, damaged);
        Exception e =
            assertThrows(
                Exception.class,
                () -> ParquetJavaOracle.read(bad, schema, b -> b.usePageChecksumVerification(true)),
                m.pathInSchema() + " at " + pageOffset + ": a changed byte went unnoticed");
        assertTrue(
            causes(e).contains("CRC") || causes(e).contains("checksum"),
            m.pathInSchema() + ": " + causes(e));
      }
    }
    assertTrue(sawDictionary, "no dictionary page was checked");
  }

  private static String causes(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      out.append(t.getMessage()).append(" / ");
    }
    return out.toString();
  }

  @Test
  void checksumsCanBeTurnedOff() throws Exception {
    Path file = write(PageVersion.V1, false);
    byte[] bytes = Files.readAllBytes(file);
    for (ColumnChunk chunk : FooterReader.read(file).rowGroups().get(0).columns()) {
      long offset = chunk.metaData().dataPageOffset();
      PageHeader header =
          MetadataCodec.readPageHeader(bytes, (int) offset, bytes.length - (int) offset).value();
      assertFalse(header.crc() != null, chunk.metaData().pathInSchema().toString());
    }
  }
}
