package dev.parquetconnect.bench.files;

import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The file sizes the files suite reports after its timings: the events data written by our writer
 * and by parquet-java's (v1 and v2 writers), same codec, default sizes. A ratio above 1 means our
 * file is smaller.
 */
public final class SuiteReport {
  private SuiteReport() {}

  public static List<String> lines() throws Exception {
    EventsData data = EventsData.generate(WriteEventsBench.ROWS);
    List<String> lines = new ArrayList<>();
    for (String codec : List.of("ZSTD", "SNAPPY")) {
      long ours = ours(data, codec);
      for (ParquetProperties.WriterVersion version : ParquetProperties.WriterVersion.values()) {
        long theirs = parquetJava(data, codec, version);
        lines.add(
            String.format(
                Locale.ROOT,
                "FileSize/codec=%s/peer=%s ours=%d parquet-java=%d ratio=%.3f",
                codec,
                version,
                ours,
                theirs,
                (double) theirs / ours));
      }
    }
    return lines;
  }

  private static long ours(EventsData data, String codec) throws Exception {
    WriteEventsBench.Discard sink = new WriteEventsBench.Discard();
    try (ParquetFileWriter writer =
        new ParquetFileWriter(
            sink,
            data.schema(),
            WriterOptions.builder().codec(CompressionCodec.valueOf(codec)).build())) {
      for (Row row : data.rows()) {
        writer.write(row);
      }
    }
    return sink.count;
  }

  private static long parquetJava(
      EventsData data, String codec, ParquetProperties.WriterVersion version) throws Exception {
    WriteEventsBench.Discard sink = new WriteEventsBench.Discard();
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new WriteEventsBench.DiscardFile(sink))
            .withConf(new Configuration(false))
            .withType(data.groupSchema())
            .withCompressionCodec(CompressionCodecName.valueOf(codec))
            .withWriterVersion(version)
            .build()) {
      for (Group g : data.groups()) {
        writer.write(g);
      }
    }
    return sink.count;
  }
}
