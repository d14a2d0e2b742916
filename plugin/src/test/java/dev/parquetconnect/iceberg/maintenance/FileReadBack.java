package dev.parquetconnect.iceberg.maintenance;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;

/**
 * A compacted or written data file as two other implementations read it: parquet-java's example
 * reader and DuckDB. The row keys are {@code [partition, offset, id, name, amount, ...int columns,
 * tag count]}, each number a long, so the two readers' sets compare equal.
 */
final class FileReadBack {
  private FileReadBack() {}

  /** The footer schema (with its field ids) as parquet-java reads it. */
  static MessageType parquetJavaSchema(Path file) throws IOException {
    try (org.apache.parquet.hadoop.ParquetFileReader reader =
        org.apache.parquet.hadoop.ParquetFileReader.open(new LocalInputFile(file))) {
      return reader.getFooter().getFileMetaData().getSchema();
    }
  }

  /** The row keys of {@code file}, {@code intColumns} being INT32 columns read after amount. */
  static Set<List<Object>> parquetJavaKeys(Path file, String... intColumns) throws IOException {
    Set<List<Object>> rows = new HashSet<>();
    try (org.apache.parquet.hadoop.ParquetFileReader reader =
        org.apache.parquet.hadoop.ParquetFileReader.open(new LocalInputFile(file))) {
      MessageType schema = reader.getFooter().getFileMetaData().getSchema();
      PageReadStore pages;
      while ((pages = reader.readNextRowGroup()) != null) {
        RecordReader<Group> records =
            new ColumnIOFactory()
                .getColumnIO(schema)
                .getRecordReader(pages, new GroupRecordConverter(schema));
        for (long i = 0; i < pages.getRowCount(); i++) {
          Group g = records.read();
          List<Object> row = new ArrayList<>();
          row.add((long) g.getInteger("__kafka_partition", 0));
          row.add(g.getLong("__kafka_offset", 0));
          row.add(g.getLong("id", 0));
          row.add(g.getFieldRepetitionCount("name") == 0 ? null : g.getString("name", 0));
          row.add(g.getDouble("amount", 0));
          for (String column : intColumns) {
            row.add((long) g.getInteger(column, 0));
          }
          row.add(
              g.getFieldRepetitionCount("tags") == 0
                  ? null
                  : (long) g.getGroup("tags", 0).getFieldRepetitionCount(0));
          rows.add(row);
        }
      }
    }
    return rows;
  }

  /** The same row keys as DuckDB reads them. */
  static Set<List<Object>> duckKeys(Path file, String... intColumns) throws SQLException {
    StringBuilder select =
        new StringBuilder("SELECT __kafka_partition, __kafka_offset, id, name, amount");
    for (String column : intColumns) {
      select.append(", ").append(column);
    }
    select.append(", len(tags) FROM '").append(file).append("'");
    Set<List<Object>> rows = new HashSet<>();
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = duck.createStatement();
        ResultSet r = sql.executeQuery(select.toString())) {
      while (r.next()) {
        List<Object> row = new ArrayList<>();
        int column = 1;
        row.add(r.getLong(column++));
        row.add(r.getLong(column++));
        row.add(r.getLong(column++));
        row.add(r.getString(column++));
        row.add(r.getDouble(column++));
        for (int i = 0; i < intColumns.length; i++) {
          row.add(r.getLong(column++));
        }
        long tags = r.getLong(column);
        row.add(r.wasNull() ? null : tags);
        rows.add(row);
      }
    }
    return rows;
  }

  /** {@code "column TYPE"} for each column, as DuckDB describes the file. */
  static List<String> duckTypes(Path file) throws SQLException {
    List<String> types = new ArrayList<>();
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = duck.createStatement();
        ResultSet r = sql.executeQuery("DESCRIBE SELECT * FROM '" + file + "'")) {
      while (r.next()) {
        types.add(r.getString(1) + " " + r.getString(2));
      }
    }
    return types;
  }
}
