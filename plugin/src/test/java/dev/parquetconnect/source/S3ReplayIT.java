package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.source.SinkArchive.Original;
import dev.parquetconnect.storage.S3ProxyServer;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreOutput;
import dev.parquetconnect.storage.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source reading from S3 (S3Proxy on 127.0.0.1): an archive replayed through ranged GETs,
 * replayed files moved (copy and delete on S3), a corrupt file skipped and quarantined.
 */
final class S3ReplayIT {
  private static S3ProxyServer server;
  @TempDir Path local;

  @BeforeAll
  static void startServer() throws Exception {
    server = new S3ProxyServer();
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.close();
  }

  private static Map<String, String> props(String prefix, String... keyValues) {
    Map<String, String> p = new HashMap<>();
    p.put("name", "s3-replay");
    p.put("store.url", "s3://" + S3ProxyServer.BUCKET + "/" + prefix);
    S3ProxyServer.settings(server.endpoint())
        .forEach(
            (k, v) ->
                p.put(
                    k,
                    String.valueOf(
                        v instanceof dev.parquetconnect.storage.Secret s ? s.value() : v)));
    p.put("discovery.interval.ms", "100");
    for (int i = 0; i < keyValues.length; i += 2) {
      p.put(keyValues[i], keyValues[i + 1]);
    }
    return p;
  }

  private void upload(Store store, String key, List<Original> records) throws Exception {
    Path file = SinkArchive.write(local.resolve(key.replace('/', '_')), records, 100);
    try (StoreOutput out = store.create(key)) {
      out.write(Files.readAllBytes(file));
      out.commit();
    }
  }

  @Test
  void replaysFromS3MovesReplayedFilesAndQuarantinesACorruptOne() throws Exception {
    String prefix = "archive-" + System.nanoTime();
    Map<String, String> props =
        props(
            prefix,
            "after.replay",
            "move",
            "after.replay.move.prefix",
            "done",
            "errors.on.corrupt.file",
            "skip",
            "errors.quarantine.prefix",
            "quarantine",
            "batch.size",
            "120");
    List<Original> expected = new ArrayList<>();
    try (Store store = Stores.open(props.get("store.url"), props)) {
      for (int f = 0; f < 3; f++) {
        List<Original> records = SinkArchive.records("t", 0, f * 250L, 250);
        upload(store, "topics/t/" + SinkArchive.fileName("t", 0, f * 250L, 0), records);
        expected.addAll(records);
      }
      try (StoreOutput out = store.create("topics/t/" + SinkArchive.fileName("t", 0, 750, 0))) {
        out.write(new byte[] {'P', 'A', 'R', '1', 1, 2, 3});
        out.commit();
      }
      TaskDriver driver = new TaskDriver(props).start();
      List<SourceRecord> got = driver.drain(3);
      driver.stop();
      assertEquals(expected.size(), got.size());
      for (int i = 0; i < expected.size(); i++) {
        ReplayAssertions.assertReplayed(expected.get(i), got.get(i));
      }
      assertEquals(List.of(), store.list("topics", true), "every file moved away");
      assertEquals(3, store.list("done/t", true).size());
      assertTrue(store.exists("quarantine/t/" + SinkArchive.fileName("t", 0, 750, 0)));
      assertFalse(store.exists("topics/t/" + SinkArchive.fileName("t", 0, 0, 0)));
    }
  }
}
