package dev.parquetconnect.iceberg;

import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.connect.ParquetRecordWriter;
import dev.parquetconnect.connect.SchemaInference;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;
import org.apache.kafka.connect.sink.SinkRecord;

/** Our writer's files in in-memory Iceberg tables, read back with Iceberg's generic reader. */
final class TableFiles {
  private static final AtomicInteger NAMES = new AtomicInteger();

  private TableFiles() {}

  /** A file our writer wrote: its bytes and the footer it kept. */
  record Written(byte[] bytes, FileMetaData footer) {}

  static InMemoryCatalog catalog() {
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize("mem", Map.of());
    catalog.createNamespace(Namespace.of("lake"));
    return catalog;
  }

  static Table create(InMemoryCatalog catalog, Schema schema, PartitionSpec spec) {
    return catalog.createTable(
        TableIdentifier.of("lake", "t" + NAMES.incrementAndGet()), schema, spec);
  }

  /** {@code records} written as our sink writes them, with the field ids of {@code table}. */
  static Written write(
      FileLayout layout, Schema table, List<SinkRecord> records, WriterOptions options) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      ParquetRecordWriter writer =
          new ParquetRecordWriter(
              bytes,
              layout,
              options,
              new SchemaInference(SchemaInference.ConflictPolicy.STRING),
              written -> IcebergSchemas.withFieldIds(written, table));
      try (writer) {
        for (SinkRecord record : records) {
          writer.write(record);
        }
      }
      return new Written(bytes.toByteArray(), writer.footer());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Appends {@code file} to {@code table} in {@code partition} (null: unpartitioned). */
  static DataFile append(Table table, Written file, StructLike partition) {
    String location =
        table.locationProvider().newDataLocation("f" + NAMES.incrementAndGet() + ".parquet");
    try (OutputStream out = table.io().newOutputFile(location).create()) {
      out.write(file.bytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DataFiles.Builder builder =
        DataFiles.builder(table.spec())
            .withPath(location)
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(file.bytes().length)
            .withMetrics(
                DataFileMetrics.of(file.footer(), table.schema(), MetricsConfig.forTable(table)));
    if (partition != null) {
      builder.withPartition(partition);
    }
    DataFile dataFile = builder.build();
    table.newAppend().appendFile(dataFile).commit();
    return dataFile;
  }

  /**
   * Every row of the table's current snapshot, read by iceberg-data's generic Parquet reader in the
   * table's schema (file by file, as IcebergGenerics does; IcebergGenerics itself needs
   * iceberg-orc, which the tests do not have).
   */
  static List<Record> read(Table table) {
    return read(table, table.newScan());
  }

  /** The rows of the files {@code scan} plans (a filtered scan prunes files by their metrics). */
  static List<Record> read(Table table, TableScan scan) {
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      for (FileScanTask task : tasks) {
        rows.addAll(readFile(table, task.file().location()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  static List<Record> readFile(Table table, String location) {
    Schema schema = table.schema();
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> records =
        Parquet.read(table.io().newInputFile(location))
            .project(schema)
            .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema))
            .build()) {
      records.forEach(rows::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }
}
