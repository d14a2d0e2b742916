package dev.parquetconnect.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.oracle.ParquetJavaFeatureWriter;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pq merge}: rows concatenated in order, schemas checked, key/value metadata merged. */
class MergeCommandTest {
  @Test
  void concatenatesRowsInTheOrderGiven(@TempDir Path dir) {
    Path a = Corpus.file("data/alltypes_plain.parquet");
    Path b = Corpus.file("data/alltypes_plain.snappy.parquet");
    Path c = Corpus.file("data/alltypes_dictionary.parquet");
    Path out = dir.resolve("merged.parquet");
    PqRun run =
        PqRun.run("merge", out.toString(), a.toString(), b.toString(), c.toString(), a.toString());
    assertEquals(Pq.OK, run.exit(), run.describe());
    assertTrue(run.out().startsWith("wrote " + out + ": 20 rows, "), run.out());
    // Without --codec, the first input's codec.
    assertTrue(run.out().contains(", UNCOMPRESSED, "), run.out());
    List<String> expected = new ArrayList<>();
    for (Path in : List.of(a, b, c, a)) {
      expected.addAll(PqRun.run("cat", in).outLines());
    }
    assertEquals(expected, PqRun.run("cat", out).outLines());
    assertEquals(PqRun.run("schema", a).out(), PqRun.run("schema", out).out());
  }

  @Test
  void takesTheWriterOptions(@TempDir Path dir) {
    Path in = Corpus.file("data/nested_maps.snappy.parquet");
    Path out = dir.resolve("merged.parquet");
    PqRun run =
        PqRun.run(
            "merge",
            out.toString(),
            in.toString(),
            in.toString(),
            "--codec",
            "brotli",
            "--row-group-rows",
            "4",
            "--page-version",
            "2");
    assertEquals(Pq.OK, run.exit(), run.describe());
    String meta = PqRun.run("meta", out).out();
    assertTrue(meta.contains("\nrow groups: 3\n"), meta);
    assertTrue(meta.contains("\n    codec: BROTLI\n"), meta);
    assertEquals(12, PqRun.run("cat", out).outLines().size());
  }

  @Test
  void refusesDifferentSchemasNamingTheDifference(@TempDir Path dir) {
    Path a = Corpus.file("data/alltypes_plain.parquet");
    Path b = Corpus.file("data/alltypes_tiny_pages.parquet");
    Path out = dir.resolve("merged.parquet");
    PqRun run = PqRun.run("merge", out.toString(), a.toString(), b.toString());
    assertEquals(Pq.FAILED, run.exit(), run.describe());
    assertEquals(1, run.errLines().size(), run.err());
    assertTrue(
        run.err().startsWith("pq merge: " + b + " does not have the schema of " + a + ": it has '"),
        run.err());
    assertFalse(Files.exists(out));
  }

  @Test
  void keepsTheKeyValueMetadataAllInputsShare(@TempDir Path dir) throws IOException {
    Path first = dir.resolve("first.parquet");
    Path second = dir.resolve("second.parquet");
    // Writers name the root as they like: it is no part of the schema merge compares.
    write(first, "one", Map.of("shared", "same", "version", "1", "only.first", "x"), 1, 2);
    write(second, "two", Map.of("shared", "same", "version", "2"), 3);
    Path out = dir.resolve("merged.parquet");
    PqRun run = PqRun.run("merge", out.toString(), first.toString(), second.toString());
    assertEquals(Pq.OK, run.exit(), run.describe());
    assertEquals(
        List.of(
            "pq merge: warning: key/value metadata 'only.first' differs between the inputs or is"
                + " missing in some; it is not written",
            "pq merge: warning: key/value metadata 'version' differs between the inputs or is"
                + " missing in some; it is not written"),
        run.errLines());
    String meta = PqRun.run("meta", out).out();
    assertTrue(meta.contains("\n  shared = \"same\"\n"), meta);
    assertFalse(meta.contains("version ="), meta);
    assertEquals(
        List.of("{\"x\":1,\"s\":\"v1\"}", "{\"x\":2,\"s\":\"v2\"}", "{\"x\":3,\"s\":\"v3\"}"),
        PqRun.run("cat", out).outLines());
    assertTrue(PqRun.run("schema", out).out().startsWith("message one {"));
  }

  private static void write(
      Path file, String rootName, Map<String, String> keyValues, int... values) throws IOException {
    MessageType schema =
        new MessageType(
            rootName,
            List.of(
                PrimitiveNode.of("x", FieldRepetitionType.REQUIRED, PhysicalType.INT32),
                PrimitiveNode.of("s", FieldRepetitionType.OPTIONAL, PhysicalType.BYTE_ARRAY)
                    .withLogicalType(LogicalType.STRING)));
    List<Row> rows = new ArrayList<>();
    for (int v : values) {
      rows.add(Row.of(schema.root(), v, ("v" + v).getBytes(StandardCharsets.UTF_8)));
    }
    ParquetJavaFeatureWriter.write(file, schema, rows, b -> b.withExtraMetaData(keyValues));
  }

  @Test
  void needsAnOutputAndAnInput() {
    PqRun run = PqRun.run("merge", "out.parquet");
    assertEquals(Pq.USAGE, run.exit());
    assertEquals("pq merge: missing OUT and at least one IN", run.errLines().get(0));
  }
}
