package dev.parquetconnect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parquetconnect.sink.ParquetSinkConnector;
import dev.parquetconnect.source.ParquetSourceConnector;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Connector;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkTask;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.apache.kafka.connect.source.SourceTask;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seeded configuration fuzzing of both connectors, the way a Connect worker drives them: the REST
 * validate call ({@link Connector#validate}), then for a configuration without errors {@code
 * start}, {@code taskConfigs} and {@code Task.start}.
 *
 * <p>Each valid example of {@code config/*.json} (with {@code ${env:PARQUET_LAKE_URL}} replaced by
 * a temporary {@code file:///} directory) is mutated at random: keys dropped, keys set to junk
 * (blank, negative, beyond {@code long}, not a number, unknown enum values in odd case, unicode,
 * very long, {@code null}), combinations known to be invalid (each with the keys an error may be
 * reported on), and secrets with recognisable markers in every password key and inside store URLs.
 * Checked:
 *
 * <ul>
 *   <li>{@code validate} never throws;
 *   <li>a known-invalid combination gets an error on one of its keys;
 *   <li>every error message names the key it is reported on (the worker's PUT answer lists the
 *       messages without their keys), and a key set to junk that is refused names the junk value
 *       too, except password keys and store URLs that may carry credentials;
 *   <li>no marker appears in a validate answer, an exception, or the log;
 *   <li>a configuration without errors and with a local store starts the connector, gives task
 *       configs and starts a task (S3 and HDFS URLs are only validated: starting would connect);
 *   <li>a configuration with errors makes {@code start} fail with a {@link ConfigException} or
 *       {@link ConnectException} naming a key at fault (a worker starts stored configurations
 *       without validating them again).
 * </ul>
 *
 * <p>All problems are collected and reported together, with the seed, the round and the
 * configuration. {@code -Dconfig.fuzz.seed=N} and {@code -Dconfig.fuzz.rounds=N} change the run.
 */
final class ConfigFuzzTest {
  private static final Logger LOG = LoggerFactory.getLogger(ConfigFuzzTest.class);
  private static final long SEED = Long.getLong("config.fuzz.seed", 0x5EED_C0F1L);
  private static final int ROUNDS = Integer.getInteger("config.fuzz.rounds", 200);
  private static final String MARKER = "Zq9SECRETMARK";

  /** The keys whose values are credentials (Password keys of the sink, store settings). */
  private static final Set<String> PASSWORD_KEYS =
      Set.of(
          "aws.access.key.id",
          "aws.secret.access.key",
          "aws.session.token",
          "aws.sts.external.id",
          "s3.sse.c.key",
          "s3.tls.truststore.password");

  static {
    // Our own loggers at DEBUG, if no earlier test in this JVM created them already (slf4j-simple
    // reads the level when a logger is created); INFO and above are captured regardless.
    System.setProperty("org.slf4j.simpleLogger.log.dev.parquetconnect", "debug");
  }

  @TempDir Path temp;

  private final List<String> problems = new ArrayList<>();
  private final Map<String, Integer> tally = new TreeMap<>();
  private int caseNumber;

  /** One known-invalid combination: the keys it sets and the keys an error may be reported on. */
  private record Combo(String what, Map<String, String> set, Set<String> blame) {}

  private static Combo combo(String what, Set<String> blame, String... keyValues) {
    Map<String, String> set = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      set.put(keyValues[i], keyValues[i + 1]);
    }
    return new Combo(what, set, blame);
  }

  @Test
  void sinkConfigurationsNeverBreakValidateStartOrLeakSecrets() throws IOException {
    run("sink", List.of("sink-local.json", "sink-s3.json", "sink-hdfs.json"), sinkCombos());
  }

  @Test
  void sourceConfigurationsNeverBreakValidateStartOrLeakSecrets() throws IOException {
    run("source", List.of("source-replay.json", "source-generic.json"), sourceCombos());
  }

  private void run(String kind, List<String> examples, List<Combo> combos) throws IOException {
    Random random = new Random(SEED ^ kind.hashCode());
    PrintStream err = System.err;
    PrintStream out = System.out;
    ByteArrayOutputStream logs = new ByteArrayOutputStream();
    PrintStream capture = new PrintStream(logs, true, StandardCharsets.UTF_8);
    long started = System.nanoTime();
    System.setErr(capture);
    System.setOut(capture);
    boolean sawLogs = false;
    try {
      for (String example : examples) {
        Map<String, String> base = example(example);
        Connector probe = newConnector(kind);
        Set<String> keys = new LinkedHashSet<>(probe.config().names());
        keys.addAll(PASSWORD_KEYS);
        keys.addAll(
            List.of(
                "name",
                "hdfs.kerberos.principal",
                "hdfs.kerberos.keytab",
                "s3.endpoint",
                "s3.part.size",
                "s3.sse.type",
                "hadoop.config.fs.defaultFS"));
        List<String> keyList = List.copyOf(keys);

        // The example itself must pass.
        check(kind, example + " as is", base, Map.of(), null, logs);
        sawLogs |= logs.size() > 0;
        for (Combo c : combos) {
          Map<String, String> props = new HashMap<>(base);
          props.putAll(c.set());
          check(kind, example + " + " + c.what(), props, Map.of(), c, logs);
        }
        for (int round = 0; round < ROUNDS; round++) {
          Map<String, String> props = new HashMap<>(base);
          Map<String, String> junk = new HashMap<>();
          Combo c = random.nextInt(3) == 0 ? combos.get(random.nextInt(combos.size())) : null;
          if (c != null) {
            props.putAll(c.set());
          }
          int mutations = 1 + random.nextInt(4);
          for (int m = 0; m < mutations; m++) {
            String key = keyList.get(random.nextInt(keyList.size()));
            if (c != null && c.set().containsKey(key)) {
              continue; // would undo the combination
            }
            if (c != null && key.equals("store.url")) {
              continue;
            }
            junk.remove(key); // only the last mutation of a key counts
            switch (random.nextInt(5)) {
              case 0 -> props.remove(key);
              case 4 -> {
                // A valid value at an edge (odd case, extremes), so that more rounds start.
                List<String> edges = EDGES.get(key);
                if (edges != null) {
                  props.put(key, edges.get(random.nextInt(edges.size())));
                } else {
                  props.remove(key);
                }
              }
              case 1 -> {
                if (PASSWORD_KEYS.contains(key)) {
                  props.put(key, secret(random));
                } else {
                  props.remove(key);
                }
              }
              default -> {
                String value = junk(random, key);
                props.put(key, value);
                junk.put(key, value);
              }
            }
            if (key.equals("name")) {
              // The worker refuses an empty name or one with control characters before any
              // connector sees it.
              props.put("name", "fuzz-" + random.nextInt(1000) + "-\u00e9t\u00e9 x/y,z=1");
              junk.remove("name");
            }
          }
          for (String key : PASSWORD_KEYS) {
            if (random.nextInt(3) == 0 && (c == null || !c.set().containsKey(key))) {
              props.put(key, secret(random));
            }
          }
          if (c == null && random.nextInt(4) == 0) {
            String url = secretUrl(random);
            props.put("store.url", url);
            junk.remove("store.url");
          }
          check(
              kind,
              example + " round " + round + (c == null ? "" : " + " + c.what()),
              props,
              junk,
              c,
              logs);
        }
      }
    } finally {
      System.setErr(err);
      System.setOut(out);
    }
    assertTrue(sawLogs, "the log capture saw nothing");
    LOG.info(
        "{} config fuzz (seed {}): {} cases in {} ms; {}",
        kind,
        SEED,
        caseNumber,
        (System.nanoTime() - started) / 1_000_000,
        tally);
    assertEquals(
        List.of(),
        problems,
        () ->
            problems.size()
                + " problems (seed "
                + SEED
                + "):\n"
                + String.join("\n\n", problems.subList(0, Math.min(40, problems.size()))));
  }

  // ---------------------------------------------------------------------------------------------
  // One configuration

  private void check(
      String kind,
      String what,
      Map<String, String> props,
      Map<String, String> junk,
      Combo combo,
      ByteArrayOutputStream logs) {
    caseNumber++;
    logs.reset();
    String label = kind + " case " + caseNumber + " (" + what + ")";
    List<String> texts = new ArrayList<>();
    Connector connector = newConnector(kind);
    Config config;
    try {
      config = connector.validate(props);
    } catch (Throwable e) {
      problem(label, props, "validate threw " + describe(e));
      count("validate threw");
      return;
    }
    Map<String, List<String>> errors = new TreeMap<>();
    for (ConfigValue v : config.configValues()) {
      // The answer echoes every value; a password's must come back masked.
      if (PASSWORD_KEYS.contains(v.name())) {
        texts.add(String.valueOf(v.value()));
      }
      texts.addAll(v.errorMessages());
      if (!v.errorMessages().isEmpty()) {
        errors.put(v.name(), v.errorMessages());
      }
    }
    count(errors.isEmpty() ? "valid" : "invalid");
    // Every message names its key.
    errors.forEach(
        (key, messages) -> {
          for (String message : messages) {
            if (message == null || !message.contains(key)) {
              problem(label, props, "the error on " + key + " does not name it: " + message);
            }
          }
        });
    // A refused junk value is named, unless it is a credential or may carry one.
    junk.forEach(
        (key, value) -> {
          List<String> messages = errors.get(key);
          if (messages == null
              || value == null
              || value.isBlank()
              || PASSWORD_KEYS.contains(key)
              || (key.equals("store.url") && mayCarryCredentials(value))) {
            return;
          }
          if (messages.stream().noneMatch(m -> namesValue(m, value))) {
            problem(
                label,
                props,
                "the errors on " + key + " do not name its value '" + value + "': " + messages);
          }
        });
    if (combo != null) {
      if (errors.keySet().stream().noneMatch(combo.blame()::contains)) {
        problem(
            label,
            props,
            "the invalid combination "
                + combo.what()
                + " got no error on "
                + combo.blame()
                + "; errors: "
                + errors);
      }
    }
    String url = props.get("store.url");
    boolean local = url != null && url.startsWith("file:///" + temp.toString().substring(1));
    if (errors.isEmpty() && local) {
      startAll(kind, label, props, texts);
    } else if (!errors.isEmpty()) {
      startRefused(kind, label, props, errors.keySet(), texts);
    }
    texts.add(logs.toString(StandardCharsets.UTF_8));
    for (String text : texts) {
      if (text.contains(MARKER)) {
        int at = text.indexOf(MARKER);
        problem(
            label,
            props,
            "a secret marker leaked: ..."
                + text.substring(Math.max(0, at - 200), Math.min(text.length(), at + 100))
                + "...");
        break;
      }
    }
  }

  /** A configuration without errors runs: connector, task configs, a task. */
  private void startAll(String kind, String label, Map<String, String> props, List<String> texts) {
    Connector connector = newConnector(kind);
    Task task = null;
    try {
      connector.start(props);
      int max = 1 + (props.hashCode() & 1);
      List<Map<String, String>> taskConfigs = connector.taskConfigs(max);
      if (taskConfigs.size() != max) {
        problem(label, props, taskConfigs.size() + " task configs for tasks.max " + max);
        return;
      }
      task = connector.taskClass().getDeclaredConstructor().newInstance();
      if (task instanceof SinkTask sink) {
        sink.initialize(new SinkContext());
      } else {
        ((SourceTask) task).initialize(new SourceContext());
      }
      task.start(taskConfigs.get(taskConfigs.size() - 1));
      count("started");
    } catch (Throwable e) {
      texts.add(describe(e));
      problem(label, props, "validate found nothing, but starting failed: " + describe(e));
      count("start failed");
    } finally {
      try {
        if (task != null) {
          task.stop();
        }
        connector.stop();
      } catch (Throwable e) {
        problem(label, props, "stop threw " + describe(e));
      }
    }
  }

  /** A configuration with errors is refused by start with a message naming a key at fault. */
  private void startRefused(
      String kind,
      String label,
      Map<String, String> props,
      Set<String> keysAtFault,
      List<String> texts) {
    Connector connector = newConnector(kind);
    try {
      connector.start(props);
      problem(label, props, "start accepted a configuration validate refuses on " + keysAtFault);
    } catch (ConfigException | ConnectException e) {
      texts.add(describe(e));
      String message = String.valueOf(e.getMessage());
      if (keysAtFault.stream().noneMatch(message::contains)) {
        problem(label, props, "start's refusal names none of " + keysAtFault + ": " + message);
      }
      count("start refused");
    } catch (Throwable e) {
      texts.add(describe(e));
      problem(label, props, "start failed with " + describe(e));
    } finally {
      try {
        connector.stop();
      } catch (Throwable e) {
        problem(label, props, "stop threw " + describe(e));
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Inputs

  private Map<String, String> example(String file) throws IOException {
    Path path = Path.of(System.getProperty("repo.root", ".."), "config", file);
    Map<String, String> props =
        new ObjectMapper()
            .readValue(path.toFile(), new TypeReference<LinkedHashMap<String, String>>() {});
    props.put("name", file.replace(".json", ""));
    if (props.get("store.url").startsWith("${")) {
      Path lake = Files.createDirectories(temp.resolve("lake-" + file.replace(".json", "")));
      props.put("store.url", lake.toUri().toString());
    }
    return props;
  }

  private static List<Combo> sinkCombos() {
    Set<String> pathFormat = Set.of("path.format");
    return List.of(
        combo(
            "time partitioner with an empty path.format",
            pathFormat,
            "partitioner.class",
            "time",
            "path.format",
            ""),
        combo(
            "time partitioner with a blank path.format",
            pathFormat,
            "partitioner.class",
            "TiMe",
            "path.format",
            "  "),
        combo(
            "time partitioner, path.format without name=value",
            pathFormat,
            "partitioner.class",
            "time",
            "path.format",
            "yyyy/MM/dd"),
        combo(
            "time partitioner, unbalanced quote",
            pathFormat,
            "partitioner.class",
            "time",
            "path.format",
            "'dt=yyyy"),
        combo(
            "time partitioner, bad timezone",
            Set.of("timezone"),
            "partitioner.class",
            "time",
            "timezone",
            "Mars/Olympus_Mons"),
        combo(
            "time partitioner, offset out of range",
            Set.of("timezone"),
            "partitioner.class",
            "time",
            "timezone",
            "UTC+25:00"),
        combo(
            "time partitioner, bad locale",
            Set.of("locale"),
            "partitioner.class",
            "time",
            "locale",
            "not a locale!"),
        combo(
            "time partitioner, empty locale",
            Set.of("locale"),
            "partitioner.class",
            "time",
            "locale",
            ""),
        combo(
            "field partitioner without fields",
            Set.of("partition.field.name"),
            "partitioner.class",
            "field",
            "partition.field.name",
            ""),
        combo(
            "field partitioner with blank fields",
            Set.of("partition.field.name"),
            "partitioner.class",
            "FIELD",
            "partition.field.name",
            " , ,"),
        combo(
            "field partitioner with an empty path segment",
            Set.of("partition.field.name"),
            "partitioner.class",
            "field",
            "partition.field.name",
            "a..b"),
        combo(
            "header partitioner without headers",
            Set.of("partition.header.name"),
            "partitioner.class",
            "header",
            "partition.header.name",
            ""),
        combo(
            "custom partitioner that does not exist",
            Set.of("partitioner.class"),
            "partitioner.class",
            "com.example.NoSuchPartitioner"),
        combo(
            "custom partitioner that is no Partitioner",
            Set.of("partitioner.class"),
            "partitioner.class",
            "java.lang.String"),
        combo(
            "field extractor without a field",
            Set.of("timestamp.field"),
            "partitioner.class",
            "time",
            "timestamp.extractor",
            "field",
            "timestamp.field",
            ""),
        combo("rotate.interval.ms zero", Set.of("rotate.interval.ms"), "rotate.interval.ms", "0"),
        combo(
            "rotate.interval.ms negative",
            Set.of("rotate.interval.ms"),
            "rotate.interval.ms",
            "-5"),
        combo(
            "rotate.schedule.interval.ms zero",
            Set.of("rotate.schedule.interval.ms"),
            "rotate.schedule.interval.ms",
            "0"),
        combo(
            "rotate.schedule.interval.ms negative",
            Set.of("rotate.schedule.interval.ms"),
            "rotate.schedule.interval.ms",
            "-2"),
        combo("flush.size zero", Set.of("flush.size"), "flush.size", "0"),
        combo(
            "codec level for a codec without levels",
            Set.of("parquet.codec.level"),
            "parquet.codec",
            "snappy",
            "parquet.codec.level",
            "3"),
        combo(
            "zstd level out of range",
            Set.of("parquet.codec.level"),
            "parquet.codec",
            "ZSTD",
            "parquet.codec.level",
            "23"),
        combo(
            "access key without secret",
            Set.of("aws.access.key.id", "aws.secret.access.key"),
            "store.url",
            "s3://bucket/p",
            "aws.access.key.id",
            "AKIA" + MARKER,
            "aws.secret.access.key",
            ""),
        combo(
            "secret without access key",
            Set.of("aws.access.key.id", "aws.secret.access.key"),
            "store.url",
            "s3://bucket/p",
            "aws.access.key.id",
            "",
            "aws.secret.access.key",
            "s3cr3t" + MARKER),
        combo(
            "sse-c without key",
            Set.of("s3.sse.c.key", "s3.sse.type"),
            "store.url",
            "s3://bucket/p",
            "s3.sse.type",
            "SSE-c",
            "s3.sse.c.key",
            " "),
        combo("relative store URL", Set.of("store.url"), "store.url", "lake/raw"),
        combo("opaque file URL", Set.of("store.url"), "store.url", "file:lake"),
        combo("file URL with a host", Set.of("store.url"), "store.url", "file://host/lake"),
        combo("file URL with ..", Set.of("store.url"), "store.url", "file:///tmp/lake/../../etc"),
        combo("s3 URL without bucket", Set.of("store.url"), "store.url", "s3://"),
        combo("s3 URL with empty bucket", Set.of("store.url"), "store.url", "s3:///prefix"),
        combo("unknown scheme", Set.of("store.url"), "store.url", "nosuchfs://host/lake"),
        combo(
            "store URL with credentials",
            Set.of("store.url"),
            "store.url",
            "s3://AKIA:" + MARKER + "@bucket/p"),
        combo("topics.dir escaping", Set.of("topics.dir"), "topics.dir", "../outside"),
        combo("topics.dir hidden", Set.of("topics.dir"), "topics.dir", "_tmp"),
        combo(
            "kerberos principal without keytab",
            Set.of("hdfs.kerberos.principal", "hdfs.kerberos.keytab"),
            "store.url",
            "hdfs://127.0.0.1:8020/lake",
            "hdfs.kerberos.principal",
            "connect@EXAMPLE.COM"),
        combo(
            "s3 endpoint that is no http URL",
            Set.of("s3.endpoint"),
            "store.url",
            "s3://bucket/p",
            "s3.endpoint",
            "ftp://127.0.0.1:9000"),
        combo(
            "s3 part size below the minimum",
            Set.of("s3.part.size"),
            "store.url",
            "s3://bucket/p",
            "s3.part.size",
            "1024"));
  }

  private static List<Combo> sourceCombos() {
    return List.of(
        combo("generic without topic", Set.of("topic"), "mode", "generic", "topic", ""),
        combo("replay with topic", Set.of("topic"), "mode", "Replay", "topic", "x"),
        combo(
            "replay with key fields",
            Set.of("key.fields"),
            "mode",
            "replay",
            "key.fields",
            "id",
            "topic",
            ""),
        combo(
            "original partitions in generic mode",
            Set.of("partition.mode"),
            "mode",
            "GENERIC",
            "topic",
            "t",
            "partition.mode",
            "original"),
        combo("key.hash without count", Set.of("partition.count"), "partition.mode", "KEY.HASH"),
        combo(
            "move without prefix",
            Set.of("after.replay.move.prefix"),
            "after.replay",
            "move",
            "after.replay.move.prefix",
            ""),
        combo(
            "move under topics.dir",
            Set.of("after.replay.move.prefix"),
            "after.replay",
            "MoVe",
            "topics.dir",
            "topics",
            "after.replay.move.prefix",
            "topics/done"),
        combo(
            "move with the root as topics.dir",
            Set.of("after.replay.move.prefix", "topics.dir"),
            "after.replay",
            "move",
            "topics.dir",
            "",
            "after.replay.move.prefix",
            "done"),
        combo(
            "errors.topic without skip",
            Set.of("errors.topic"),
            "errors.on.corrupt.file",
            "fail",
            "errors.topic",
            "errs"),
        combo(
            "quarantine without skip",
            Set.of("errors.quarantine.prefix"),
            "errors.on.corrupt.file",
            "fail",
            "errors.quarantine.prefix",
            "q"),
        combo(
            "quarantine under topics.dir",
            Set.of("errors.quarantine.prefix"),
            "errors.on.corrupt.file",
            "skip",
            "topics.dir",
            "topics",
            "errors.quarantine.prefix",
            "topics/q"),
        combo("bad file name pattern", Set.of("file.name.pattern"), "file.name.pattern", "(["),
        combo("batch size zero", Set.of("batch.size"), "batch.size", "0"),
        combo("relative store URL", Set.of("store.url"), "store.url", "archive/raw"),
        combo("opaque file URL", Set.of("store.url"), "store.url", "file:archive"),
        combo("file URL with a host", Set.of("store.url"), "store.url", "file://host/archive"),
        combo("file URL with ..", Set.of("store.url"), "store.url", "file:///tmp/a/../../etc"),
        combo("s3 URL without bucket", Set.of("store.url"), "store.url", "s3://"),
        combo("s3 URL with empty bucket", Set.of("store.url"), "store.url", "s3:///prefix"),
        combo("unknown scheme", Set.of("store.url"), "store.url", "nosuchfs://host/archive"),
        combo(
            "store URL with credentials",
            Set.of("store.url"),
            "store.url",
            "hdfs://user:" + MARKER + "@127.0.0.1:8020/p"),
        combo("topics.dir escaping", Set.of("topics.dir"), "topics.dir", "../outside"),
        combo(
            "access key without secret",
            Set.of("aws.access.key.id", "aws.secret.access.key"),
            "store.url",
            "s3://bucket/p",
            "aws.access.key.id",
            "AKIA" + MARKER,
            "aws.secret.access.key",
            " "),
        combo(
            "sse-c without key",
            Set.of("s3.sse.c.key", "s3.sse.type"),
            "store.url",
            "s3://bucket/p",
            "s3.sse.type",
            "sse-c",
            "s3.sse.c.key",
            ""),
        combo(
            "s3 part size not a number",
            Set.of("s3.part.size"),
            "store.url",
            "s3://bucket/p",
            "s3.part.size",
            "eight MiB"),
        combo(
            "kerberos principal without keytab",
            Set.of("hdfs.kerberos.principal", "hdfs.kerberos.keytab"),
            "store.url",
            "hdfs://127.0.0.1:8020/archive",
            "hdfs.kerberos.principal",
            "connect@EXAMPLE.COM"));
  }

  /** Valid values at an edge, per key; partitioner.class only to values that need no other key. */
  private static final Map<String, List<String>> EDGES =
      Map.ofEntries(
          Map.entry("partitioner.class", List.of("Kafka", " KAFKA ")),
          Map.entry("timezone", List.of("Europe/Paris", "+14:00", "utc", "Z")),
          Map.entry("locale", List.of("fr-FR", "ja-JP-u-ca-japanese", "EN")),
          Map.entry("timestamp.extractor", List.of("WallClock", " record ")),
          Map.entry("flush.size", List.of("1", "9223372036854775807", " 7 ")),
          Map.entry("file.max.bytes", List.of("65536", "9223372036854775807")),
          Map.entry("rotate.interval.ms", List.of("-1", "1", "9223372036854775807")),
          Map.entry("rotate.schedule.interval.ms", List.of("-1", "1", "9223372036854775807")),
          Map.entry(
              "parquet.codec", List.of("GZip", "lz4_RAW", "Uncompressed", "brotli", "SNAPPY")),
          Map.entry("parquet.page.version", List.of("V2", "v1")),
          Map.entry("parquet.row.group.bytes", List.of("65536", "9223372036854775807")),
          Map.entry("parquet.page.bytes", List.of("1024", "67108864")),
          Map.entry("parquet.page.rows", List.of("0", "1", "2147483647")),
          Map.entry("parquet.bloom.filter.columns", List.of("id", "a.b.c, d", "\u00e9t\u00e9")),
          Map.entry("parquet.bloom.filter.fpp", List.of("0.000001", "0.5", "1e-3")),
          Map.entry("parquet.bloom.filter.ndv", List.of("1", "9223372036854775807")),
          Map.entry("buffer.max.bytes", List.of("1048576", "9223372036854775807")),
          Map.entry("commit.timeout.ms", List.of("1000", "9223372036854775807")),
          Map.entry("cleanup.orphans.min.age.ms", List.of("0", "9223372036854775807")),
          Map.entry("schema.compatibility", List.of("full", "Backward")),
          Map.entry("behavior.on.null.values", List.of("IGNORE", "Write")),
          Map.entry("topics.dir", List.of("a/b/c", "/lake/", "\u00e9t\u00e9")),
          Map.entry("discovery.interval.ms", List.of("100", "9223372036854775807")),
          Map.entry("file.name.pattern", List.of(".*", "[a-z]+\\.parquet")),
          Map.entry("batch.size", List.of("1", "1000000")),
          Map.entry("errors.on.corrupt.file", List.of("SKIP", "Fail")),
          Map.entry("transaction.unit", List.of("BATCH", "File")),
          Map.entry("partition.mode", List.of("Default", "")),
          Map.entry("s3.part.size", List.of("5242880", "536870912")),
          Map.entry("s3.endpoint", List.of("", "https://127.0.0.1:9000")));

  private static final String[] ODD_ENUMS = {
    "ZsTdX",
    "NONEE",
    "kafka ",
    "Tİme",
    "fıeld",
    "LEAVE_IT",
    "rePlay!",
    "key_hash",
    "v3",
    "sse-d",
    "MILLISECONDS",
    "WHEN-SUPPORTED"
  };

  private String junk(Random random, String key) {
    return switch (random.nextInt(16)) {
      case 0 -> "";
      case 1 -> " \t ";
      case 2 -> "-1";
      case 3 -> "-" + (1 + random.nextInt(1_000_000));
      case 4 -> "99999999999999999999999";
      case 5 -> "-9223372036854775809";
      case 6 -> "12abc";
      case 7 -> "NaN";
      case 8 -> ODD_ENUMS[random.nextInt(ODD_ENUMS.length)];
      case 9 -> "\u65e5\u672c\u8a9e\uD83D\uDE80\u00e9";
      case 10 -> "x".repeat(5000 + random.nextInt(5000));
      case 11 -> null;
      case 12 -> "0";
      case 13 -> "1e400";
      case 14 -> "../../etc/passwd";
      default -> "  " + key + "\u0000\u200b ";
    };
  }

  /** A credential with the marker, sometimes with characters that upset parsers. */
  private static String secret(Random random) {
    String[] shapes = {
      "%s", "AKIA%s", "%s/with+slash=", " %s ", "%s,comma", "{%s}", "%s\n", "\"%s\""
    };
    return String.format(shapes[random.nextInt(shapes.length)], MARKER + random.nextInt(100));
  }

  /** A store URL carrying the marker as a credential or in an unparsable form. */
  private String secretUrl(Random random) {
    String m = MARKER + random.nextInt(100);
    String[] urls = {
      "s3://AKIA:" + m + "@bucket/p",
      "s3:AKIA:" + m + "@bucket",
      "hdfs://u:" + m + "@127.0.0.1:8020/p",
      "file://u:" + m + "@/tmp/x",
      "s3://AKIA:" + m + " space@bucket",
      "AKIA:" + m + "@bucket/p",
      "https://u:" + m + "@example.com/p",
      temp.toUri() + "?token=" + m
    };
    return urls[random.nextInt(urls.length)];
  }

  /** Whether a store URL may hold a credential, so that a message may leave it out. */
  private static boolean mayCarryCredentials(String url) {
    if (url.contains("@") || url.contains("?") || url.contains("#") || url.contains(MARKER)) {
      return true;
    }
    try {
      new java.net.URI(url.trim());
      return false;
    } catch (java.net.URISyntaxException e) {
      return true; // unparseable: only the reason is given, by design
    }
  }

  /**
   * Whether a message names a value: as given (trimmed), as Kafka prints the number it parsed
   * (1e400 is "Infinity"), or, for a value of hundreds of characters, its beginning.
   */
  private static boolean namesValue(String message, String value) {
    String v = value.trim();
    // Store paths are printed with control characters and surrogates escaped (StoreKeys).
    StringBuilder escaped = new StringBuilder();
    v.chars()
        .forEach(
            c ->
                escaped.append(
                    c < 0x20 || (c >= 0x7f && c <= 0x9f) || Character.isSurrogate((char) c)
                        ? String.format("\\u%04x", c)
                        : String.valueOf((char) c)));
    if (message.contains(v)
        || message.contains(escaped)
        || (v.length() > 200 && message.contains(v.substring(0, 40)))) {
      return true;
    }
    try {
      return message.contains(String.valueOf(Double.parseDouble(v)));
    } catch (NumberFormatException e) {
      return false;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers

  private static Connector newConnector(String kind) {
    return kind.equals("sink") ? new ParquetSinkConnector() : new ParquetSourceConnector();
  }

  private void problem(String label, Map<String, String> props, String what) {
    Map<String, String> shown = new TreeMap<>();
    props.forEach(
        (k, v) ->
            shown.put(
                k,
                v == null
                    ? null
                    : v.length() > 80 ? v.substring(0, 40) + "...(" + v.length() + " chars)" : v));
    problems.add(label + ": " + what + "\n  config: " + shown);
  }

  private void count(String what) {
    tally.merge(what, 1, Integer::sum);
  }

  private static String describe(Throwable e) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (text.length() > 0) {
        text.append(" <- caused by ");
      }
      text.append(t);
      if (t == e && !(t instanceof ConfigException) && !(t instanceof ConnectException)) {
        StackTraceElement[] stack = t.getStackTrace();
        for (int i = 0; i < Math.min(4, stack.length); i++) {
          text.append("\n      at ").append(stack[i]);
        }
      }
    }
    return text.toString();
  }

  /** What a sink task asks of the worker: nothing here beyond the context's existence. */
  private static final class SinkContext implements SinkTaskContext {
    @Override
    public Map<String, String> configs() {
      return Map.of();
    }

    @Override
    public void offset(Map<TopicPartition, Long> offsets) {}

    @Override
    public void offset(TopicPartition tp, long offset) {}

    @Override
    public void timeout(long timeoutMs) {}

    @Override
    public Set<TopicPartition> assignment() {
      return Set.of();
    }

    @Override
    public void pause(TopicPartition... partitions) {}

    @Override
    public void resume(TopicPartition... partitions) {}

    @Override
    public void requestCommit() {}
  }

  /** A source task context with no committed offsets. */
  private static final class SourceContext implements SourceTaskContext {
    @Override
    public Map<String, String> configs() {
      return Map.of();
    }

    @Override
    public OffsetStorageReader offsetStorageReader() {
      return new OffsetStorageReader() {
        @Override
        public <T> Map<String, Object> offset(Map<String, T> partition) {
          return null;
        }

        @Override
        public <T> Map<Map<String, T>, Map<String, Object>> offsets(
            Collection<Map<String, T>> partitions) {
          return Map.of();
        }
      };
    }
  }
}
