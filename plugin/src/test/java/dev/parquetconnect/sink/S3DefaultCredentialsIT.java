package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.ConnectWorker;
import dev.parquetconnect.it.ItPaths;
import dev.parquetconnect.it.JsonRecord;
import dev.parquetconnect.it.KafkaBroker;
import dev.parquetconnect.it.KafkaRecords;
import dev.parquetconnect.it.KafkaRuntime;
import dev.parquetconnect.storage.ItStores;
import dev.parquetconnect.storage.S3ProxyServer;
import dev.parquetconnect.storage.Secret;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.Stores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The S3 store with no credentials in the connector config: the AWS SDK's default chain finds them
 * where the worker runs. A real worker (one per case, sharing one broker and one S3Proxy that
 * checks every request's signature) gets the keys either as {@code AWS_ACCESS_KEY_ID}/{@code
 * AWS_SECRET_ACCESS_KEY} in its environment or as a named profile of a credentials file ({@code
 * AWS_SHARED_CREDENTIALS_FILE}, {@code AWS_PROFILE}); every other source of the chain is cleared
 * from its environment. The sink then commits every record to S3, which DuckDB reads back, and the
 * store logs that it used the default chain. Wrong keys are refused by the same server, so the
 * records can only have been written with the keys the chain found.
 */
final class S3DefaultCredentialsIT {
  private static final Logger LOG = LoggerFactory.getLogger(S3DefaultCredentialsIT.class);
  private static final int RECORDS = 2_000;
  private static final int PARTITIONS = 2;
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  /** Every variable the SDK's default chain reads (besides the JVM's aws.* properties). */
  private static final List<String> CHAIN_VARIABLES =
      List.of(
          "AWS_ACCESS_KEY_ID",
          "AWS_SECRET_ACCESS_KEY",
          "AWS_SESSION_TOKEN",
          "AWS_ACCESS_KEY",
          "AWS_SECRET_KEY",
          "AWS_PROFILE",
          "AWS_SHARED_CREDENTIALS_FILE",
          "AWS_CONFIG_FILE",
          "AWS_WEB_IDENTITY_TOKEN_FILE",
          "AWS_ROLE_ARN",
          "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
          "AWS_CONTAINER_CREDENTIALS_FULL_URI");

  private static Path workDir;
  private static KafkaBroker broker;
  private static ItStores.Running s3;

  @BeforeAll
  static void start() throws Exception {
    workDir = ItPaths.freshWorkDir("S3DefaultCredentialsIT");
    broker = KafkaBroker.start(KafkaRuntime.defaultVersion(), workDir.resolve("broker"));
    s3 = ItStores.s3(0, 0);
  }

  @AfterAll
  static void stop() throws Exception {
    if (s3 != null) {
      s3.close();
    }
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void keysFromTheWorkersEnvironment() throws Exception {
    roundTrip(
        "env",
        worker ->
            worker
                .environment("AWS_ACCESS_KEY_ID", S3ProxyServer.accessKeyId())
                .environment("AWS_SECRET_ACCESS_KEY", S3ProxyServer.secretAccessKey()));
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void keysFromANamedProfileOfACredentialsFile() throws Exception {
    Path dir = Files.createDirectories(workDir.resolve("aws"));
    Path credentials = dir.resolve("credentials");
    // The default profile holds keys the server refuses: only AWS_PROFILE picks the right ones.
    Files.writeString(
        credentials,
        String.join(
            "\n",
            "[default]",
            "aws_access_key_id = AKIAWRONGDEFAULT0000",
            "aws_secret_access_key = wrong-default-secret",
            "",
            "[lake-writer]",
            "aws_access_key_id = " + S3ProxyServer.accessKeyId(),
            "aws_secret_access_key = " + S3ProxyServer.secretAccessKey(),
            ""),
        StandardCharsets.UTF_8);
    Path config = Files.writeString(dir.resolve("config"), "", StandardCharsets.UTF_8);
    roundTrip(
        "profile",
        worker ->
            worker
                .environment("AWS_SHARED_CREDENTIALS_FILE", credentials.toString())
                .environment("AWS_CONFIG_FILE", config.toString())
                .environment("AWS_PROFILE", "lake-writer"));
  }

  @Test
  void theServerRefusesWrongKeys() throws Exception {
    Map<String, Object> settings = new HashMap<>(s3Settings());
    settings.put("aws.access.key.id", "AKIAWRONGDEFAULT0000");
    settings.put("aws.secret.access.key", Secret.of("wrong-default-secret"));
    settings.put("s3.retry.max.attempts", "1");
    try (Store store = Stores.open(s3.url("refused"), settings)) {
      assertThrows(Exception.class, () -> store.list("", true));
    }
  }

  private static void roundTrip(String name, UnaryOperator<ConnectWorker.Builder> credentials)
      throws Exception {
    long started = System.nanoTime();
    String topic = "credentials-" + name;
    String connector = "sink-" + name;
    broker.createTopic(topic, PARTITIONS);
    List<JsonRecord> records = new ArrayList<>();
    for (int i = 0; i < RECORDS; i++) {
      records.add(SinkIts.order(i, i % PARTITIONS, 5));
    }
    KafkaRecords.produce(broker.bootstrapServers(), topic, records, TIMEOUT);
    Map<String, String> config = SinkIts.connectorConfig(s3, name, topic, Map.of());
    config.remove("aws.access.key.id");
    config.remove("aws.secret.access.key");
    assertTrue(
        config.keySet().stream().noneMatch(k -> k.startsWith("aws.")),
        "no credentials in the connector config: " + config.keySet());
    ConnectWorker.Builder builder =
        ConnectWorker.builder(KafkaRuntime.defaultVersion(), broker.bootstrapServers())
            .workDir(workDir.resolve("worker-" + name))
            .groupId("connect-" + name)
            // Never the instance metadata service of a build machine that happens to be in EC2.
            .environment("AWS_EC2_METADATA_DISABLED", "true");
    CHAIN_VARIABLES.forEach(variable -> builder.environment(variable, null));
    try (ConnectWorker worker = credentials.apply(builder).start();
        Store check = s3.open(name)) {
      worker.putConnectorConfig(connector, config);
      worker.awaitConnectorRunning(connector, 1, TIMEOUT);
      Map<TopicPartition, Long> ends = new HashMap<>();
      for (int p = 0; p < PARTITIONS; p++) {
        ends.put(new TopicPartition(topic, p), (long) RECORDS / PARTITIONS);
      }
      SinkIts.awaitCommitted(
          check,
          connector,
          ends,
          TIMEOUT,
          () -> {
            if (worker.connectorStatus(connector).tasks().stream()
                .anyMatch(t -> "FAILED".equals(t.state()))) {
              throw new AssertionError(
                  "the task failed: " + worker.connectorStatus(connector).json());
            }
          });
      worker.deleteConnector(connector);
      String log = Files.readString(worker.logFile(), StandardCharsets.UTF_8);
      assertTrue(
          log.contains("credentials default chain)"),
          "the store used the SDK's default chain; see " + worker.logFile());
      assertFalse(
          log.contains(S3ProxyServer.secretAccessKey()),
          "the secret reached the worker log " + worker.logFile());
      SinkIts.Found found =
          SinkIts.duckDb(SinkIts.localCopy(check, topic, workDir.resolve("copy-" + name)), null);
      assertEquals(
          new SinkIts.Found(RECORDS, RECORDS, 0, 0, RECORDS / PARTITIONS - 1), found, name);
    }
    LOG.info(
        "{}: default credential chain checked in {} ms",
        name,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
  }

  private static Map<String, Object> s3Settings() {
    return S3ProxyServer.settings(s3.settings().get("s3.endpoint"));
  }
}
