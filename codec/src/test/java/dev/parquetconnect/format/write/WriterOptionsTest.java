package dev.parquetconnect.format.write;

import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.compress.Codecs;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.SchemaElement;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaConverter;
import dev.parquetconnect.format.schema.SchemaTestData;
import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The options' defaults are the issue's, setters check their arguments, overrides apply. */
class WriterOptionsTest {
  @Test
  void defaultsAreTheIssues() {
    WriterOptions o = WriterOptions.defaults();
    assertEquals(1 << 20, o.pageByteLimit());
    assertEquals(Integer.MAX_VALUE, o.pageRowLimit(), "pages cut by bytes only");
    assertEquals(1 << 20, o.dictionaryByteLimit());
    assertEquals(128L << 20, o.rowGroupByteTarget());
    assertEquals(CompressionCodec.ZSTD, o.codec());
    assertEquals(Codecs.DEFAULT_LEVEL, o.codecLevel());
    assertEquals(EncodingPolicy.ADAPTIVE, o.encodingPolicy());
    assertEquals(PageVersion.V1, o.pageVersion());
    assertTrue(o.pageChecksums());
    assertTrue(o.pageIndex());
    assertFalse(o.pageHeaderStatistics());
    assertEquals(64, o.truncateLength());
    assertTrue(o.createdBy().matches("kafka-connect-parquet version \\S+"), o.createdBy());
    assertTrue(o.bloomFilters().isEmpty() && o.keyValueMetadata().isEmpty());
  }

  @Test
  void settersRefuseNonsense() {
    WriterOptions.Builder b = WriterOptions.builder();
    assertThrows(IllegalArgumentException.class, () -> b.pageByteLimit(0));
    assertThrows(IllegalArgumentException.class, () -> b.pageRowLimit(-1));
    assertThrows(IllegalArgumentException.class, () -> b.rowGroupByteTarget(0));
    assertThrows(IllegalArgumentException.class, () -> b.truncateLength(0));
    assertThrows(IllegalArgumentException.class, () -> b.bloomFilter("id", 0, 0.01));
    assertThrows(IllegalArgumentException.class, () -> b.bloomFilter("id", 10, 1.0));
    assertThrows(
        IllegalArgumentException.class, () -> b.columnEncoding("id", Encoding.RLE_DICTIONARY));
    assertThrows(NullPointerException.class, () -> b.codec(null));
  }

  @Test
  void overridesApplyToTheirColumnOnly() {
    WriterOptions o =
        WriterOptions.builder()
            .columnCodec("name", CompressionCodec.GZIP, 9)
            .columnEncoding("name", Encoding.DELTA_BYTE_ARRAY)
            .columnDictionary("name", false)
            .bloomFilter("id", 1000, 0.01)
            .build();
    ColumnOptions name = o.column("name");
    assertEquals(CompressionCodec.GZIP, name.codec());
    assertEquals(9, name.codecLevel());
    assertEquals(Encoding.DELTA_BYTE_ARRAY, name.encoding());
    assertEquals(Boolean.FALSE, name.dictionary());
    assertEquals(ColumnOptions.NONE, o.column("id"));
    assertNull(o.bloomFilter("name"));
    WriterOptions copy = o.toBuilder().pageRowLimit(5).build();
    assertEquals(name, copy.column("name"));
    assertEquals(5, copy.pageRowLimit());
    assertEquals(Integer.MAX_VALUE, o.pageRowLimit());
  }

  @Test
  void anOverrideThatDoesNotFitItsColumnIsRefusedByTheWriter() {
    WriterOptions wrongEncoding =
        WriterOptions.builder().columnEncoding("name", Encoding.DELTA_BINARY_PACKED).build();
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new ParquetFileWriter(
                new ByteArrayOutputStream(), SchemaTestData.sample(), wrongEncoding));
    WriterOptions booleanBloom = WriterOptions.builder().bloomFilter("b", 10, 0.1).build();
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new ParquetFileWriter(
                new ByteArrayOutputStream(),
                new MessageType(
                    "m", List.of(PrimitiveNode.of("b", REQUIRED, PhysicalType.BOOLEAN))),
                booleanBloom));
  }

  @Test
  void footerSchemaElementsMustDescribeTheSchemaWritten() throws Exception {
    MessageType schema = SchemaTestData.sample();
    List<SchemaElement> own = SchemaConverter.toSchemaElements(schema);
    WriterOptions same = WriterOptions.builder().footerSchema(own).build();
    new ParquetFileWriter(new ByteArrayOutputStream(), schema, same).close();
    MessageType other =
        new MessageType("m", List.of(PrimitiveNode.of("b", REQUIRED, PhysicalType.BOOLEAN)));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new ParquetFileWriter(new ByteArrayOutputStream(), other, same));
    assertTrue(e.getMessage().startsWith("the footer schema elements describe"), e.getMessage());
  }
}
