package dev.parquetconnect.bench.sink;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * What the sink suite reports after its timings: the size of the file each side wrote from the
 * benchmark's records (per codec; ours with and without the Kafka metadata columns), whether ours
 * is no larger than the peer's on the like-for-like setting, and whether DuckDB reads the same
 * values from both files.
 */
public final class SuiteReport {
  private SuiteReport() {}

  public static List<String> lines() throws Exception {
    List<SinkRecord> records = SinkData.records(SinkThroughputBench.RECORDS);
    List<String> lines = new ArrayList<>();
    for (String codec : List.of("ZSTD", "SNAPPY")) {
      Path oursRoot = Files.createTempDirectory("sink-report-ours");
      Path oursMetadataRoot = Files.createTempDirectory("sink-report-ours-metadata");
      Path peerRoot = Files.createTempDirectory("sink-report-peer");
      try {
        Path ours = SinkPaths.ours(records, oursRoot, codec, false);
        Path oursMetadata = SinkPaths.ours(records, oursMetadataRoot, codec, true);
        Path peer = SinkPaths.peer(records, peerRoot, codec);
        long oursBytes = Files.size(ours);
        long peerBytes = Files.size(peer);
        lines.add(
            String.format(
                Locale.ROOT,
                "SinkFileSize/codec=%s/metadata=off ours=%d peer=%d peer/ours=%.3f",
                codec,
                oursBytes,
                peerBytes,
                (double) peerBytes / oursBytes));
        lines.add(
            String.format(
                Locale.ROOT,
                "SinkFileSize/codec=%s/metadata=on ours=%d peer=%d peer/ours=%.3f",
                codec,
                Files.size(oursMetadata),
                peerBytes,
                (double) peerBytes / Files.size(oursMetadata)));
        lines.add(
            "SinkFileSize/codec="
                + codec
                + " size ours<=peer (metadata=off): "
                + (oursBytes <= peerBytes ? "yes" : "no"));
        String oursDigest = digest(ours);
        String peerDigest = digest(peer);
        lines.add(
            "SinkContent/codec="
                + codec
                + " same values (DuckDB): "
                + (oursDigest.equals(peerDigest)
                    ? "yes"
                    : "no: ours " + oursDigest + ", peer " + peerDigest));
      } finally {
        SinkPaths.delete(oursRoot);
        SinkPaths.delete(oursMetadataRoot);
        SinkPaths.delete(peerRoot);
      }
    }
    lines.addAll(TableModeReport.lines(records));
    return lines;
  }

  /**
   * Row count and an order-independent hash of every value column as DuckDB reads them (timestamps
   * as epoch millis, so a UTC-adjusted and a local timestamp compare; map entries sorted, since the
   * peer's conversion builds hash maps).
   */
  static String digest(Path file) throws Exception {
    return digest(List.of(file));
  }

  /** As {@link #digest(Path)}, over several files read as one table. */
  public static String digest(List<Path> files) throws Exception {
    StringBuilder list = new StringBuilder();
    for (Path file : files) {
      list.append(list.isEmpty() ? "'" : ", '")
          .append(file.toAbsolutePath().toString().replace("'", "''"))
          .append('\'');
    }
    String query =
        "SELECT count(*), sum(hash(order_id, customer_id, country, status, currency,"
            + " item_count, total, amount, paid, epoch_ms(created_at), discount, coupon, note,"
            + " loyalty_points, shipping.street, shipping.city, shipping.zip, tags,"
            + " list_transform(items, i -> i.sku), list_transform(items, i -> i.quantity),"
            + " list_transform(items, i -> i.unit_price),"
            + " list_sort(list_transform(map_entries(attributes), e -> e.key || '=' || e.value))"
            + ")::HUGEINT), count(shipping), count(note) FROM read_parquet(["
            + list
            + "])";
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(query)) {
      result.next();
      return result.getString(1)
          + "/"
          + result.getString(2)
          + "/"
          + result.getString(3)
          + "/"
          + result.getString(4);
    }
  }
}
