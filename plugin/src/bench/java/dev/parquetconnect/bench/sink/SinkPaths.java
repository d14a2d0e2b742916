package dev.parquetconnect.bench.sink;

import dev.parquetconnect.sink.ParquetSinkTask;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;

/**
 * The two paths the sink benchmark compares, each from the same {@code SinkRecord}s to one
 * committed Parquet file in a local directory.
 *
 * <p>Ours: the real {@link ParquetSinkTask} (started, partition opened, records put in batches as
 * Connect hands them over, committed by flush.size at the last record with its intent and outcome
 * markers, the committed offset checked through {@code preCommit}, stopped) on the local store. The
 * peers' path: the value converted to Avro ({@link ConnectToAvro}) and written by parquet-java's
 * {@code AvroParquetWriter} into a temporary file that is renamed into place at the end, as
 * Confluent's HDFS sink does. Both can be fed batch by batch ({@link OursRun}, {@link PeerRun}), so
 * that a benchmark can hand each side every batch as Connect does: just built by the converter.
 * Both sides: the given codec, 128 MiB row groups, 1 MiB pages and dictionaries, v1 data pages.
 */
public final class SinkPaths {
  static final long ROW_GROUP_BYTES = 128L * 1024 * 1024;
  static final int PAGE_BYTES = 1024 * 1024;
  static final int DICTIONARY_BYTES = 1024 * 1024;

  /** What Connect's consumer hands a task per put at its default max.poll.records. */
  public static final int BATCH = 500;

  private SinkPaths() {}

  /** Our task writes {@code records} under {@code root}; returns the committed data file. */
  static Path ours(List<SinkRecord> records, Path root, String codec, boolean kafkaMetadata)
      throws IOException {
    OursRun run = new OursRun(root, codec, kafkaMetadata, records.size());
    for (int from = 0; from < records.size(); from += BATCH) {
      run.put(records.subList(from, Math.min(records.size(), from + BATCH)));
    }
    return run.finish();
  }

  /** The peers' path writes the values of {@code records} under {@code root}; returns the file. */
  static Path peer(List<SinkRecord> records, Path root, String codec) throws IOException {
    PeerRun run = new PeerRun(root, codec, records.size());
    for (int from = 0; from < records.size(); from += BATCH) {
      run.write(records.subList(from, Math.min(records.size(), from + BATCH)));
    }
    return run.finish();
  }

  /**
   * Our side, fed batch by batch: the task is started and its partition opened on creation, each
   * batch is one {@code put}, and the put that reaches {@code total} records commits the file
   * (flush.size); {@link #finish} checks the committed offset and stops the task.
   */
  static final class OursRun {
    private final Path root;
    private final long total;
    private final TopicPartition partition = new TopicPartition(SinkData.TOPIC, 0);
    private final ParquetSinkTask task = new ParquetSinkTask();

    OursRun(Path root, String codec, boolean kafkaMetadata, int total) {
      this(root, codec, kafkaMetadata, total, Map.of());
    }

    /** As above, with more task keys ({@code extra} wins). */
    OursRun(Path root, String codec, boolean kafkaMetadata, int total, Map<String, String> extra) {
      this.root = root;
      this.total = total;
      Map<String, String> props = new HashMap<>();
      props.put("name", "sink-bench");
      props.put("store.url", root.toUri().toString());
      props.put("flush.size", Integer.toString(total));
      props.put("parquet.codec", codec.toLowerCase());
      props.put("parquet.row.group.bytes", Long.toString(ROW_GROUP_BYTES));
      props.put("parquet.page.bytes", Integer.toString(PAGE_BYTES));
      props.put("parquet.dictionary.bytes", Integer.toString(DICTIONARY_BYTES));
      props.put("parquet.page.version", "v1");
      // Room for the whole file: the budget must not force early row groups the peer does not
      // write.
      props.put("buffer.max.bytes", Long.toString(2 * ROW_GROUP_BYTES));
      props.put("store.kafka.metadata", Boolean.toString(kafkaMetadata));
      props.putAll(extra);
      task.initialize(new BenchContext(props, partition));
      task.start(props);
      task.open(List.of(partition));
    }

    void put(List<SinkRecord> batch) {
      task.put(batch);
    }

    /** The task itself, for a run that checks its commits otherwise ({@link TablePaths}). */
    ParquetSinkTask task() {
      return task;
    }

    /** Stops a task whose run will not be finished (the end of a benchmark trial). */
    void abandon() {
      task.stop();
    }

    /** Checks that the task committed every record, stops it; returns the committed file. */
    Path finish() throws IOException {
      try {
        Map<TopicPartition, OffsetAndMetadata> committed = task.preCommit(Map.of());
        OffsetAndMetadata offset = committed.get(partition);
        if (offset == null || offset.offset() != total) {
          throw new IllegalStateException(
              "our task committed " + committed + ", expected offset " + total);
        }
        task.close(List.of(partition));
      } finally {
        task.stop();
      }
      try (Stream<Path> files = Files.walk(root.resolve("topics"))) {
        List<Path> data = files.filter(p -> p.toString().endsWith(".parquet")).toList();
        if (data.size() != 1) {
          throw new IllegalStateException("expected one data file, found " + data);
        }
        return data.get(0);
      }
    }
  }

  /**
   * The peers' side, fed batch by batch: the writer is opened with the first record's schema, as
   * the peers' sinks open a file, into a temporary file that {@link #finish} closes and renames
   * into place.
   */
  static final class PeerRun {
    private final Path dir;
    private final Path temporary;
    private final String codec;
    private final int total;
    private final ConnectToAvro converter = new ConnectToAvro();
    private ParquetWriter<GenericRecord> writer;

    PeerRun(Path root, String codec, int total) throws IOException {
      this.dir = root.resolve("topics").resolve(SinkData.TOPIC).resolve("partition=0");
      Files.createDirectories(dir);
      this.temporary = dir.resolve(".orders+0+0.parquet.tmp");
      this.codec = codec;
      this.total = total;
    }

    void write(List<SinkRecord> batch) throws IOException {
      try {
        for (SinkRecord record : batch) {
          if (writer == null) {
            writer =
                AvroParquetWriter.<GenericRecord>builder(new LocalOutputFile(temporary))
                    .withSchema(converter.avroSchema(record.valueSchema()))
                    .withDataModel(GenericData.get())
                    .withConf(new Configuration(false))
                    .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                    .withCompressionCodec(CompressionCodecName.valueOf(codec))
                    .withRowGroupSize(ROW_GROUP_BYTES)
                    .withPageSize(PAGE_BYTES)
                    .withDictionaryPageSize(DICTIONARY_BYTES)
                    .withDictionaryEncoding(true)
                    .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                    .build();
          }
          writer.write((GenericRecord) converter.toAvroValue(record.valueSchema(), record.value()));
        }
      } catch (IOException | RuntimeException e) {
        abandon();
        throw e;
      }
    }

    /** Closes the file and renames it into place; returns it. */
    Path finish() throws IOException {
      if (writer == null) {
        throw new IllegalStateException("no record was written");
      }
      writer.close();
      writer = null;
      Path committed =
          dir.resolve("orders+0+0000000000+" + String.format("%010d", total - 1) + ".parquet");
      Files.move(temporary, committed, StandardCopyOption.ATOMIC_MOVE);
      return committed;
    }

    /** Closes a file that will not be finished (a failed write, an abandoned run). */
    void abandon() throws IOException {
      if (writer != null) {
        ParquetWriter<GenericRecord> open = writer;
        writer = null;
        open.close();
      }
    }
  }

  /** Deletes a directory tree (between operations, outside the measured time). */
  public static void delete(Path root) throws IOException {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted((a, b) -> b.compareTo(a)).toList()) {
        Files.delete(p);
      }
    }
  }

  /**
   * The minimum of Connect a sink task needs without a worker: its assignment, and seeks and pauses
   * accepted (a fresh store asks for none).
   */
  record BenchContext(Map<String, String> configs, TopicPartition partition)
      implements SinkTaskContext {
    @Override
    public void offset(Map<TopicPartition, Long> offsets) {}

    @Override
    public void offset(TopicPartition tp, long offset) {}

    @Override
    public void timeout(long timeoutMs) {}

    @Override
    public Set<TopicPartition> assignment() {
      return Set.of(partition);
    }

    @Override
    public void pause(TopicPartition... partitions) {}

    @Override
    public void resume(TopicPartition... partitions) {}

    @Override
    public void requestCommit() {}
  }
}
