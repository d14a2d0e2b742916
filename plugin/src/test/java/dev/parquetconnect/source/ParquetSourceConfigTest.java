package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.junit.jupiter.api.Test;

/** Keys, validators and the rules between keys, as the REST validate call reports them. */
final class ParquetSourceConfigTest {
  private static Map<String, String> props(String... keyValues) {
    Map<String, String> p = new HashMap<>();
    p.put("store.url", "file:///tmp/archive");
    for (int i = 0; i < keyValues.length; i += 2) {
      p.put(keyValues[i], keyValues[i + 1]);
    }
    return p;
  }

  private static List<String> errors(Config config, String key) {
    for (ConfigValue v : config.configValues()) {
      if (v.name().equals(key)) {
        return v.errorMessages();
      }
    }
    throw new AssertionError("no key " + key);
  }

  @Test
  void defaultsReplayTheSinksTopicsDirectory() {
    ParquetSourceConfig c = new ParquetSourceConfig(props());
    assertEquals(ParquetSourceConfig.Mode.REPLAY, c.mode());
    assertEquals("topics", c.topicsDir());
    assertEquals(ParquetSourceConfig.PartitionMode.ORIGINAL, c.partitionMode());
    assertEquals(ParquetSourceConfig.AfterReplay.LEAVE, c.afterReplay());
    assertEquals(ParquetSourceConfig.OnCorruptFile.FAIL, c.onCorruptFile());
    assertEquals(ParquetSourceConfig.TransactionUnit.FILE, c.transactionUnit());
    assertTrue(c.fileNamePattern().matcher("t+0+00000000000000000000.parquet").matches());
    assertTrue(
        c.fileNamePattern()
            .matcher("t+0+00000000000000000000+00000000000000000099-1.parquet")
            .matches());
    assertEquals(
        ParquetSourceConfig.PartitionMode.DEFAULT,
        new ParquetSourceConfig(props("mode", "generic", "topic", "x")).partitionMode());
  }

  @Test
  void crossFieldRulesAreReportedOnTheirKeys() {
    Config c = ParquetSourceConfig.validate(props("mode", "generic"));
    assertTrue(errors(c, "topic").get(0).contains("required in generic mode"));

    c = ParquetSourceConfig.validate(props("after.replay", "move"));
    assertFalse(errors(c, "after.replay.move.prefix").isEmpty());

    c =
        ParquetSourceConfig.validate(
            props("after.replay", "move", "after.replay.move.prefix", "topics/done"));
    assertTrue(errors(c, "after.replay.move.prefix").get(0).contains("must not lie under"));

    c = ParquetSourceConfig.validate(props("errors.quarantine.prefix", "q"));
    assertTrue(errors(c, "errors.quarantine.prefix").get(0).contains("needs"));

    c = ParquetSourceConfig.validate(props("partition.mode", "key.hash"));
    assertFalse(errors(c, "partition.count").isEmpty());

    c = ParquetSourceConfig.validate(props("key.fields", "id"));
    assertFalse(errors(c, "key.fields").isEmpty());

    c =
        ParquetSourceConfig.validate(
            props("mode", "generic", "topic", "x", "partition.mode", "original"));
    assertFalse(errors(c, "partition.mode").isEmpty());
  }

  @Test
  void singleKeysAreValidatedWithoutEchoingCredentials() {
    Config c = ParquetSourceConfig.validate(props("store.url", "s3://AKIA:secret@bucket/p"));
    String message = errors(c, "store.url").get(0);
    assertTrue(message.contains("must not carry credentials"));
    assertFalse(message.contains("secret"));
    assertFalse(errors(ParquetSourceConfig.validate(props("mode", "copy")), "mode").isEmpty());
    assertFalse(
        errors(ParquetSourceConfig.validate(props("file.name.pattern", "([")), "file.name.pattern")
            .isEmpty());
    assertFalse(
        errors(ParquetSourceConfig.validate(props("topics.dir", "../up")), "topics.dir").isEmpty());
    assertThrows(ConfigException.class, () -> new ParquetSourceConfig(props("batch.size", "0")));
  }

  @Test
  void theConnectorSplitsWorkByTaskIndexAndDeclaresExactlyOnceSupport() {
    ParquetSourceConnector connector = new ParquetSourceConnector();
    connector.start(props());
    List<Map<String, String>> tasks = connector.taskConfigs(3);
    assertEquals(3, tasks.size());
    for (int i = 0; i < 3; i++) {
      ParquetSourceConfig task = new ParquetSourceConfig(tasks.get(i));
      assertEquals(i, task.taskIndex());
      assertEquals(3, task.taskCount());
    }
    assertEquals(ExactlyOnceSupport.SUPPORTED, connector.exactlyOnceSupport(props()));
    assertEquals(
        ConnectorTransactionBoundaries.SUPPORTED,
        connector.canDefineTransactionBoundaries(props()));
    assertEquals(ParquetSourceTask.class, connector.taskClass());
    connector.stop();
  }

  @Test
  void sinkFileNamesParseWithAndWithoutAttemptAndLastOffset() {
    SinkFileName n = SinkFileName.parse("orders+3+00000000000000001000.parquet");
    assertEquals(new SinkFileName("orders", 3, 1000, 0), n);
    assertEquals(
        new SinkFileName("orders", 3, 1000, 2),
        SinkFileName.parse("orders+3+00000000000000001000-2.parquet"));
    assertEquals(
        new SinkFileName("orders", 3, 1000, 0, 1999),
        SinkFileName.parse("orders+3+00000000000000001000+00000000000000001999.parquet"));
    assertEquals(
        new SinkFileName("orders", 3, 1000, 4, 1999),
        SinkFileName.parse("orders+3+00000000000000001000+00000000000000001999-4.parquet"));
    assertEquals(new SinkFileName(".hidden", 0, 5, 0), SinkFileName.parse("%2Ehidden+0+5.parquet"));
    assertEquals(null, SinkFileName.parse("part-0001.parquet"));
    assertEquals(null, SinkFileName.parse("t+0+99999999999999999999999.parquet"));
  }
}
