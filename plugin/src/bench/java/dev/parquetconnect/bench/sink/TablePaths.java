package dev.parquetconnect.bench.sink;

import dev.parquetconnect.sink.ParquetSinkTask;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The three paths the table-mode benchmark compares, each from the same {@code SinkRecord}s of one
 * topic partition, committing every {@link #COMMIT_RECORDS} records, with the same codec, row
 * group, page and dictionary sizes ({@link SinkPaths}), v1 data pages and no Kafka metadata
 * columns:
 *
 * <ul>
 *   <li>{@link TaskRun} in table mode: the real {@code ParquetSinkTask} with {@code
 *       table.format=iceberg}, a Hadoop catalog on local disk, the table created by the task on its
 *       first record; each commit is one Iceberg append of the data file our codec wrote through
 *       the local store, with the offsets in the snapshot (flush.size).
 *   <li>{@link TaskRun} in files mode: the same task committing files with its markers.
 *   <li>{@link IcebergAppenderRun}: Iceberg's own writer path, its generic {@code Record}s ({@link
 *       ConnectToIceberg}) written by {@code Parquet.writeData} with {@code GenericParquetWriter}
 *       (parquet-java underneath) into the table's location through the table's FileIO, each file
 *       committed with an append; the table is created in the same Hadoop catalog by the run.
 * </ul>
 */
public final class TablePaths {
  /**
   * Records per commit: flush.size of the task, the records per appended file of Iceberg's path.
   */
  static final int COMMIT_RECORDS = 50_000;

  static final String NAMESPACE = "bench";

  private TablePaths() {}

  /** Where the paths' table lives in the Hadoop catalog of {@code root}. */
  public static TableIdentifier tableId() {
    return TableIdentifier.of(NAMESPACE, SinkData.TOPIC);
  }

  public static Path warehouse(Path root) {
    return root.resolve("warehouse");
  }

  /** The task's configuration: files mode, or table mode with a Hadoop catalog under root. */
  static Map<String, String> taskProps(Path root, String codec, boolean table) {
    Map<String, String> props = new HashMap<>();
    props.put("flush.size", Integer.toString(COMMIT_RECORDS));
    props.put("parquet.codec", codec.toLowerCase());
    if (table) {
      props.put("table.format", "iceberg");
      props.put("iceberg.catalog.type", "hadoop");
      props.put("iceberg.catalog.warehouse", warehouse(root).toString());
      props.put("iceberg.table", NAMESPACE + ".${topic}");
      // Commits by count only: the table mode's clock (a minute by default, on the wall clock's
      // boundaries) would otherwise commit in the middle of a run.
      props.put("iceberg.commit.interval.ms", Long.toString(24L * 60 * 60 * 1000));
    }
    return props;
  }

  /**
   * Our task, fed batch by batch ({@link SinkPaths.OursRun}'s settings plus {@link #taskProps}); it
   * commits every {@link #COMMIT_RECORDS} records, and {@link #finish} checks that the committed
   * offset is the last record's and stops it.
   */
  public static final class TaskRun {
    private final TopicPartition partition = new TopicPartition(SinkData.TOPIC, 0);
    private final SinkPaths.OursRun run;
    private final long total;
    private final ParquetSinkTask task;

    TaskRun(Path root, String codec, boolean table, int total) {
      this(root, codec, table, total, Map.of());
    }

    /** As above, with more task keys ({@code extra} wins). */
    public TaskRun(Path root, String codec, boolean table, int total, Map<String, String> extra) {
      this.total = total;
      Map<String, String> props = taskProps(root, codec, table);
      props.putAll(extra);
      this.run = new SinkPaths.OursRun(root, codec, false, total, props);
      this.task = run.task();
    }

    public void put(List<SinkRecord> batch) {
      run.put(batch);
    }

    void abandon() {
      run.abandon();
    }

    public void finish() {
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
    }
  }

  /**
   * Iceberg's writer path, fed batch by batch: the catalog and the table on creation, one {@code
   * DataWriter} per {@link #COMMIT_RECORDS} records, closed and appended to the table when full.
   */
  static final class IcebergAppenderRun {
    private final HadoopCatalog catalog;
    private final Table table;
    private final Types.StructType struct;
    private DataWriter<Record> writer;
    private int inFile;
    private int files;

    IcebergAppenderRun(Path root, String codec) throws IOException {
      catalog = new HadoopCatalog(new Configuration(), warehouse(root).toString());
      catalog.createNamespace(Namespace.of(NAMESPACE));
      org.apache.iceberg.Schema schema = ConnectToIceberg.schema(SinkData.VALUE);
      Map<String, String> properties = new HashMap<>();
      properties.put(TableProperties.PARQUET_COMPRESSION, codec.toLowerCase());
      properties.put(
          TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, Long.toString(SinkPaths.ROW_GROUP_BYTES));
      properties.put(
          TableProperties.PARQUET_PAGE_SIZE_BYTES, Integer.toString(SinkPaths.PAGE_BYTES));
      properties.put(
          TableProperties.PARQUET_DICT_SIZE_BYTES, Integer.toString(SinkPaths.DICTIONARY_BYTES));
      table = catalog.createTable(tableId(), schema, PartitionSpec.unpartitioned(), properties);
      struct = table.schema().asStruct();
    }

    void write(List<SinkRecord> batch) throws IOException {
      for (SinkRecord record : batch) {
        if (writer == null) {
          String location = table.locationProvider().newDataLocation("bench-" + files + ".parquet");
          writer =
              Parquet.writeData(table.io().newOutputFile(location))
                  .forTable(table)
                  .createWriterFunc(GenericParquetWriter::create)
                  .withSpec(PartitionSpec.unpartitioned())
                  .overwrite()
                  .build();
        }
        writer.write(ConnectToIceberg.record(struct, (Struct) record.value()));
        if (++inFile == COMMIT_RECORDS) {
          commit();
        }
      }
    }

    private void commit() throws IOException {
      writer.close();
      DataFile file = writer.toDataFile();
      writer = null;
      inFile = 0;
      files++;
      table.newAppend().appendFile(file).commit();
    }

    /** Commits the last, partial file if any. */
    void finish() throws IOException {
      if (writer != null) {
        commit();
      }
      catalog.close();
    }

    void abandon() throws IOException {
      if (writer != null) {
        DataWriter<Record> open = writer;
        writer = null;
        open.close();
      }
      catalog.close();
    }
  }

  /** What a path left: its data files (a table's current snapshot's) and its snapshots. */
  public record Written(List<Path> files, long bytes, int snapshots, long tableRecords) {}

  /** The current snapshot's data files of the table under {@code root}, and its snapshot count. */
  public static Written table(Path root) throws IOException {
    try (HadoopCatalog catalog =
        new HadoopCatalog(new Configuration(), warehouse(root).toString())) {
      Table table = catalog.loadTable(tableId());
      List<Path> files = new ArrayList<>();
      long bytes = 0;
      try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
        for (FileScanTask task : tasks) {
          files.add(localPath(task.file().location()));
          bytes += task.file().fileSizeInBytes();
        }
      }
      int snapshots = 0;
      for (Snapshot ignored : table.snapshots()) {
        snapshots++;
      }
      long records =
          Long.parseLong(table.currentSnapshot().summary().getOrDefault("total-records", "-1"));
      return new Written(files, bytes, snapshots, records);
    }
  }

  /** The committed data files of files mode under {@code root}. */
  static Written files(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root.resolve("topics"))) {
      List<Path> files =
          paths.filter(p -> p.getFileName().toString().endsWith(".parquet")).sorted().toList();
      long bytes = 0;
      for (Path file : files) {
        bytes += Files.size(file);
      }
      return new Written(files, bytes, 0, -1);
    }
  }

  private static Path localPath(String location) {
    return location.startsWith("file:") ? Path.of(URI.create(location)) : Path.of(location);
  }
}
