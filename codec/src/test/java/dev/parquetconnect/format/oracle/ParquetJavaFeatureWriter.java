package dev.parquetconnect.format.oracle;

import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;

/**
 * {@link ParquetJavaOracle#write} with every writer property of parquet-java at hand: the test
 * configures the builder (byte-stream-split, bloom filters, page checksums, page row limits,
 * dictionary page size...) to make files that exercise the reader's less common paths.
 */
public final class ParquetJavaFeatureWriter {
  private ParquetJavaFeatureWriter() {}

  /** Writes {@code rows} with a builder that {@code configure} sets up (replacing the file). */
  public static void write(
      Path file,
      MessageType schema,
      List<Row> rows,
      Consumer<ExampleParquetWriter.Builder> configure)
      throws IOException {
    Files.deleteIfExists(file);
    org.apache.parquet.schema.MessageType pj = ParquetJavaOracle.toParquetJava(schema);
    SimpleGroupFactory factory = new SimpleGroupFactory(pj);
    ExampleParquetWriter.Builder builder =
        ExampleParquetWriter.builder(new LocalOutputFile(file))
            .withConf(new Configuration(false))
            .withType(pj);
    configure.accept(builder);
    try (ParquetWriter<Group> writer = builder.build()) {
      for (Row row : rows) {
        Group g = factory.newGroup();
        ParquetJavaOracle.fill(g, row, schema.root());
        writer.write(g);
      }
    }
  }
}
