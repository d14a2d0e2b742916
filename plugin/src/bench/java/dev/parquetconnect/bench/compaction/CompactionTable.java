package dev.parquetconnect.bench.compaction;

import dev.parquetconnect.bench.sink.SinkData;
import dev.parquetconnect.bench.sink.SinkPaths;
import dev.parquetconnect.bench.sink.TablePaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The table both compactions start from: {@link #RECORDS} of the sink bench's orders ({@link
 * SinkData}) written by our sink task in table mode (Hadoop catalog on local disk, zstd, no Kafka
 * metadata columns) committing every {@link #RECORDS_PER_FILE} records, so {@link #FILES} small
 * data files of one unpartitioned table. Built once; {@link #restore} puts it back byte for byte at
 * the same path before each compaction (the table's metadata names its files by absolute path, so a
 * copy elsewhere would not be the same table).
 */
final class CompactionTable implements AutoCloseable {
  static final int RECORDS = 200_000;
  static final int RECORDS_PER_FILE = 5_000;
  static final int FILES = RECORDS / RECORDS_PER_FILE;

  /** Large enough that each side writes one file from all inputs. */
  static final long TARGET_FILE_BYTES = 128L * 1024 * 1024;

  private final Path root;
  private final Path pristine;
  private HadoopCatalog catalog;

  private CompactionTable(Path root, Path pristine) {
    this.root = root;
    this.pristine = pristine;
  }

  static CompactionTable build() throws IOException {
    Path base = Files.createTempDirectory("compaction-bench");
    Path root = Files.createDirectories(base.resolve("table"));
    List<SinkRecord> records = SinkData.records(RECORDS);
    TablePaths.TaskRun run =
        new TablePaths.TaskRun(
            root, "ZSTD", true, RECORDS, Map.of("flush.size", Integer.toString(RECORDS_PER_FILE)));
    for (int from = 0; from < RECORDS; from += SinkPaths.BATCH) {
      run.put(records.subList(from, from + SinkPaths.BATCH));
    }
    run.finish();
    Path pristine = base.resolve("pristine");
    copy(root, pristine);
    return new CompactionTable(root, pristine);
  }

  /** Where the table's store (our data files) is: the task's {@code store.url}. */
  Path root() {
    return root;
  }

  /** The table as it was built, loaded by a catalog of its own; the previous one is closed. */
  Table restore() throws IOException {
    closeCatalog();
    SinkPaths.delete(root);
    copy(pristine, root);
    catalog = new HadoopCatalog(new Configuration(), TablePaths.warehouse(root).toString());
    return catalog.loadTable(TablePaths.tableId());
  }

  private void closeCatalog() throws IOException {
    if (catalog != null) {
      catalog.close();
      catalog = null;
    }
  }

  @Override
  public void close() throws IOException {
    closeCatalog();
    SinkPaths.delete(root.getParent());
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path source : paths.toList()) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }
}
