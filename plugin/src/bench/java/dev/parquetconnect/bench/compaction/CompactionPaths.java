package dev.parquetconnect.bench.compaction;

import dev.parquetconnect.iceberg.maintenance.CompactionPolicy;
import dev.parquetconnect.iceberg.maintenance.CompactionResult;
import dev.parquetconnect.iceberg.maintenance.TableCompactor;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.Stores;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.parquet.Parquet;

/**
 * The two compactions compared, each rewriting every data file of the table's current snapshot into
 * files of {@link CompactionTable#TARGET_FILE_BYTES} with one Iceberg rewrite commit:
 *
 * <ul>
 *   <li>ours: the connector's {@link TableCompactor} (its codec decodes the pages and re-encodes
 *       them, the inputs' codec kept), on the store the sink wrote to;
 *   <li>Iceberg's Spark-free path: every row read by Iceberg's generic Parquet reader ({@code
 *       GenericParquetReaders}, parquet-java underneath) into {@code Record}s, written by {@code
 *       Parquet.writeData} with {@code GenericParquetWriter}, zstd, into the table's location, the
 *       inputs in commit order as ours takes them, swapped in by {@code RewriteFiles} validated
 *       from the planned snapshot.
 * </ul>
 */
final class CompactionPaths {
  /**
   * Every small file, whatever its age, in one run. The run time bound is an hour, not {@code
   * CompactionPolicy.ofTarget}'s Long.MAX_VALUE ms, which the compactor's deadline (ms times 10^6
   * added to System.nanoTime) overflows into a deadline already past.
   */
  static final CompactionPolicy POLICY =
      new CompactionPolicy(
          CompactionTable.TARGET_FILE_BYTES, 2, Long.MAX_VALUE, 0, 3_600_000L, 256L << 20);

  private CompactionPaths() {}

  /** What a compaction did: files and bytes in and out. */
  record Done(int filesIn, long bytesIn, int filesOut, long bytesOut) {}

  static Done ours(Path storeRoot, Table table) throws IOException {
    try (Store store = Stores.open(storeRoot.toUri().toString(), Map.of())) {
      CompactionResult result = new TableCompactor(store, POLICY).compact(table);
      return new Done(
          result.filesRewritten(),
          result.bytesBefore(),
          result.filesWritten(),
          result.bytesAfter());
    }
  }

  static Done iceberg(Table table) throws IOException {
    table.refresh();
    Snapshot start = table.currentSnapshot();
    List<DataFile> inputs = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(start.snapshotId()).planFiles()) {
      for (FileScanTask task : tasks) {
        inputs.add(task.file().copy());
      }
    }
    inputs.sort(
        Comparator.comparing(DataFile::dataSequenceNumber).thenComparing(DataFile::location));
    Schema schema = table.schema();
    List<DataFile> outputs = new ArrayList<>();
    long bytesIn = 0;
    DataWriter<Record> writer = null;
    long rows = 0;
    for (DataFile input : inputs) {
      bytesIn += input.fileSizeInBytes();
      try (CloseableIterable<Record> read =
          Parquet.read(table.io().newInputFile(input.location()))
              .project(schema)
              .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema))
              .build()) {
        for (Record row : read) {
          if (writer == null) {
            writer = open(table, outputs.size());
          }
          writer.write(row);
          // The writer's length is its buffered size estimate; asked every 1,000 rows, as it costs.
          if (++rows % 1_000 == 0 && writer.length() >= CompactionTable.TARGET_FILE_BYTES) {
            writer.close();
            outputs.add(writer.toDataFile());
            writer = null;
          }
        }
      }
    }
    if (writer != null) {
      writer.close();
      outputs.add(writer.toDataFile());
    }
    RewriteFiles rewrite = table.newRewrite().validateFromSnapshot(start.snapshotId());
    inputs.forEach(rewrite::deleteFile);
    long bytesOut = 0;
    for (DataFile output : outputs) {
      rewrite.addFile(output);
      bytesOut += output.fileSizeInBytes();
    }
    rewrite.commit();
    return new Done(inputs.size(), bytesIn, outputs.size(), bytesOut);
  }

  private static DataWriter<Record> open(Table table, int index) throws IOException {
    String location = table.locationProvider().newDataLocation("rewritten-" + index + ".parquet");
    return Parquet.writeData(table.io().newOutputFile(location))
        .forTable(table)
        .set(TableProperties.PARQUET_COMPRESSION, "zstd")
        .createWriterFunc(GenericParquetWriter::create)
        .withSpec(table.spec())
        .overwrite()
        .build();
  }
}
