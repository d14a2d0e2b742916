package dev.parquetconnect.bench.files;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.RowReader;
import dev.parquetconnect.format.schema.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reading a whole file of the events records into records: ours through {@code RowReader} (generic
 * {@code Row}s), parquet-java through its example Group API ({@code ParquetReader} with {@code
 * GroupReadSupport}). Both read the same file, written once by parquet-java (so neither side reads
 * its own layout), from the page cache. One operation is the whole file.
 */
// A whole file takes a tenth of a second or more, so two one-second warm-ups leave the reader's
// and writer's loops still being compiled while measured (ours went 3.7 -> 29.9 ops/s over the
// measured iterations); eight give both sides the same, adequate warm-up.
@Warmup(iterations = 8)
@State(Scope.Benchmark)
public class ReadEventsBench {
  @Param({"ZSTD", "SNAPPY"})
  public String codec;

  private Path file;

  @Setup(Level.Trial)
  public void writeFile() throws IOException {
    EventsData data = EventsData.generate(WriteEventsBench.ROWS);
    file = Files.createTempFile("read-events-", ".parquet");
    Files.delete(file);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(file))
            .withConf(new Configuration(false))
            .withType(data.groupSchema())
            .withCompressionCodec(CompressionCodecName.valueOf(codec))
            .build()) {
      for (Group g : data.groups()) {
        writer.write(g);
      }
    }
  }

  @TearDown(Level.Trial)
  public void deleteFile() throws IOException {
    Files.deleteIfExists(file);
  }

  @Benchmark
  public long ours() throws Exception {
    long count = 0;
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file));
        RowReader rows = reader.rowReader()) {
      while (rows.hasNext()) {
        Row row = rows.next();
        count += row.size();
      }
    }
    return count;
  }

  @Benchmark
  public long parquetJava() throws Exception {
    long count = 0;
    // The builder parquet-java offers for a local InputFile (no Hadoop file system).
    ParquetReader.Builder<Group> builder =
        new ParquetReader.Builder<Group>(
            new LocalInputFile(file), new PlainParquetConfiguration()) {
          @Override
          protected ReadSupport<Group> getReadSupport() {
            return new GroupReadSupport();
          }
        };
    try (ParquetReader<Group> reader = builder.build()) {
      for (Group g = reader.read(); g != null; g = reader.read()) {
        count += g.getType().getFieldCount();
      }
    }
    return count;
  }
}
