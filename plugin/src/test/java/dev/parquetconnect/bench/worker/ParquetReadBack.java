package dev.parquetconnect.bench.worker;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Reads a leg's committed files back with DuckDB, an independent Parquet reader: every record
 * carries its {@code id} (0 to N - 1, each produced once), so N rows with N distinct ids from 0 to
 * N - 1 mean every record is there exactly once.
 *
 * @param rows the rows of all files
 * @param distinctIds the distinct ids among them
 * @param minId the smallest id
 * @param maxId the largest id
 */
record ParquetReadBack(long rows, long distinctIds, long minId, long maxId) {

  static ParquetReadBack of(List<Path> files) throws SQLException {
    if (files.isEmpty()) {
      return new ParquetReadBack(0, 0, -1, -1);
    }
    String list =
        files.stream()
            .map(file -> "'" + file.toAbsolutePath().toString().replace("'", "''") + "'")
            .collect(Collectors.joining(",", "[", "]"));
    try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = duckdb.createStatement();
        ResultSet result =
            statement.executeQuery(
                "SELECT count(*), count(DISTINCT id), min(id), max(id) FROM read_parquet("
                    + list
                    + ")")) {
      result.next();
      return new ParquetReadBack(
          result.getLong(1), result.getLong(2), result.getLong(3), result.getLong(4));
    }
  }

  boolean exactlyOnce(long produced) {
    return rows == produced && distinctIds == produced && minId == 0 && maxId == produced - 1;
  }

  String describe(long produced) {
    return exactlyOnce(produced)
        ? "yes"
        : "NO (rows="
            + rows
            + " distinct ids="
            + distinctIds
            + " ids "
            + minId
            + ".."
            + maxId
            + ")";
  }
}
