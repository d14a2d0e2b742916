package dev.parquetconnect.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node KRaft Kafka (combined broker and controller) in a child JVM on 127.0.0.1, run from
 * the jars of one {@link KafkaRuntime}. Its storage is formatted once; {@link #restart()} after
 * {@link #stop()} or {@link #kill()} comes back on the same ports and log directory, so clients
 * keep their bootstrap address and the data survives.
 */
public final class KafkaBroker implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaBroker.class);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  /** Starts tried when a port chosen for the broker was taken before the broker could bind it. */
  private static final int START_ATTEMPTS = 3;

  private static final Duration FORMAT_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);
  private static final Duration ADMIN_CALL_TIMEOUT = Duration.ofSeconds(30);
  private static final int NODE_ID = 1;

  private final KafkaRuntime runtime;
  private final Path workDir;
  private final Path configFile;
  private final Path logFile;
  private final List<String> jvmOptions;
  private final String bootstrapServers;
  private ChildJvm process;
  private Admin admin;

  /**
   * Where the log of the latest launch begins: what an earlier run wrote says nothing of this one.
   */
  private long launchLogStart;

  private KafkaBroker(
      KafkaRuntime runtime, Path workDir, List<String> jvmOptions, String bootstrapServers) {
    this.runtime = runtime;
    this.workDir = workDir;
    this.configFile = workDir.resolve("server.properties");
    this.logFile = workDir.resolve("broker.log");
    this.jvmOptions = jvmOptions;
    this.bootstrapServers = bootstrapServers;
  }

  /** Formats a fresh broker in {@code workDir} and starts it with the harness defaults. */
  public static KafkaBroker start(KafkaRuntime runtime, Path workDir) {
    return builder(runtime, workDir).start();
  }

  /** A broker of {@code runtime} whose config, data and log live in {@code workDir}. */
  public static Builder builder(KafkaRuntime runtime, Path workDir) {
    return new Builder(runtime, workDir);
  }

  /** The broker's settings; each has a default. */
  public static final class Builder {
    private final KafkaRuntime runtime;
    private final Path workDir;
    private final Map<String, String> overrides = new LinkedHashMap<>();
    private int clientPort;
    private int controllerPort;
    private String heap = "512m";

    private Builder(KafkaRuntime runtime, Path workDir) {
      this.runtime = runtime;
      this.workDir = workDir;
    }

    /** A fixed client port (e.g. 9092 for a quickstart); default a free one. */
    public Builder clientPort(int port) {
      this.clientPort = port;
      return this;
    }

    /** A fixed controller port; default a free one. */
    public Builder controllerPort(int port) {
      this.controllerPort = port;
      return this;
    }

    /** The broker's maximum heap, as for {@code -Xmx} (default {@code 512m}). */
    public Builder heap(String maxHeap) {
      this.heap = maxHeap;
      return this;
    }

    /**
     * A broker property that replaces or adds to the defaults (e.g. {@code
     * transaction.max.timeout.ms}).
     */
    public Builder brokerProperty(String name, String value) {
      overrides.put(name, value);
      return this;
    }

    /**
     * Formats the storage, starts the broker and waits until it has registered. A port chosen here
     * can be taken by another process before the broker binds it; then the storage is formatted
     * afresh and the broker started with new ports (unless fixed).
     */
    public KafkaBroker start() {
      for (int attempt = 1; ; attempt++) {
        List<Integer> free = ItPaths.freePorts(2);
        int client = clientPort > 0 ? clientPort : free.get(0);
        int controller = controllerPort > 0 ? controllerPort : free.get(1);
        // C1 only: the broker starts faster on a small machine, and test traffic never needs C2.
        KafkaBroker broker =
            new KafkaBroker(
                runtime,
                workDir,
                List.of("-Xms128m", "-Xmx" + heap, "-XX:TieredStopAtLevel=1"),
                ItPaths.LOOPBACK + ":" + client);
        Properties config = defaultConfig(workDir, client, controller);
        config.putAll(overrides);
        try {
          broker.writeConfig(config);
          broker.format();
          broker.launch();
          return broker;
        } catch (RuntimeException e) {
          broker.close();
          boolean portsFixed = clientPort > 0 && controllerPort > 0;
          if (attempt < START_ATTEMPTS && !portsFixed && broker.launchFailedToBind()) {
            LOG.warn(
                "{}: a port was taken before the broker could bind it (attempt {} of {}); "
                    + "formatting afresh and starting with new ports",
                broker,
                attempt,
                START_ATTEMPTS);
            ItPaths.deleteRecursively(workDir.resolve("data"));
            continue;
          }
          throw e;
        }
      }
    }
  }

  private static Properties defaultConfig(Path workDir, int clientPort, int controllerPort) {
    Properties config = new Properties();
    config.setProperty("process.roles", "broker,controller");
    config.setProperty("node.id", Integer.toString(NODE_ID));
    // A static quorum of one: formatted without --standalone, accepted by 3.x and 4.x alike.
    config.setProperty(
        "controller.quorum.voters", NODE_ID + "@" + ItPaths.LOOPBACK + ":" + controllerPort);
    config.setProperty(
        "listeners",
        "PLAINTEXT://"
            + ItPaths.LOOPBACK
            + ":"
            + clientPort
            + ",CONTROLLER://"
            + ItPaths.LOOPBACK
            + ":"
            + controllerPort);
    config.setProperty(
        "advertised.listeners", "PLAINTEXT://" + ItPaths.LOOPBACK + ":" + clientPort);
    config.setProperty("controller.listener.names", "CONTROLLER");
    config.setProperty("inter.broker.listener.name", "PLAINTEXT");
    config.setProperty(
        "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    config.setProperty("log.dirs", workDir.resolve("data").toString());
    // One node: every internal topic with one replica, and few partitions so that they are
    // created quickly on a small machine.
    config.setProperty("offsets.topic.replication.factor", "1");
    config.setProperty("offsets.topic.num.partitions", "3");
    config.setProperty("transaction.state.log.replication.factor", "1");
    config.setProperty("transaction.state.log.min.isr", "1");
    config.setProperty("transaction.state.log.num.partitions", "3");
    config.setProperty("share.coordinator.state.topic.replication.factor", "1");
    config.setProperty("share.coordinator.state.topic.min.isr", "1");
    config.setProperty("group.initial.rebalance.delay.ms", "0");
    // No time-based retention: tests produce records with fixed timestamps years in the
    // past, which the default 7 days would delete at the next retention check.
    config.setProperty("log.retention.ms", "-1");
    // A killed broker's registration must expire before it can register again on restart
    // (DUPLICATE_BROKER_REGISTRATION until then): 4 s instead of the default 9 s.
    config.setProperty("broker.session.timeout.ms", "4000");
    config.setProperty("broker.heartbeat.interval.ms", "1000");
    // Lets workers use short sessions, so a killed worker's tasks move on within seconds.
    config.setProperty("group.min.session.timeout.ms", "1000");
    return config;
  }

  private void writeConfig(Properties config) {
    try {
      Files.createDirectories(workDir);
      try (Writer writer = Files.newBufferedWriter(configFile)) {
        config.store(writer, "KafkaBroker of the integration tests, " + runtime);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + configFile, e);
    }
  }

  private void format() {
    List<String> tool =
        List.of("format", "-t", Uuid.randomUuid().toString(), "-c", configFile.toString());
    List<String> command =
        runtime.javaCommand(
            "kafka-storage-format",
            workDir,
            List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"),
            KafkaRuntime.STORAGE_TOOL_MAIN,
            tool);
    int exitCode =
        ChildJvm.start("kafka-storage-format", command, workDir, logFile).awaitExit(FORMAT_TIMEOUT);
    if (exitCode != 0) {
      throw new IllegalStateException(
          "Formatting the broker storage failed with exit code "
              + exitCode
              + "; log "
              + logFile
              + ":\n"
              + ItPaths.tail(logFile, 30));
    }
  }

  private void launch() {
    launchLogStart = ItPaths.size(logFile);
    List<String> command =
        runtime.javaCommand(
            "kafka-broker",
            workDir,
            jvmOptions,
            KafkaRuntime.BROKER_MAIN,
            List.of(configFile.toString()));
    ChildJvm started =
        ChildJvm.start("kafka-broker " + runtime.version(), command, workDir, logFile);
    process = started;
    Await.until(
        "Kafka " + runtime.version() + " broker at " + bootstrapServers + " to register",
        START_TIMEOUT,
        () -> {
          if (!started.isAlive()) {
            throw new Await.Aborted(
                "The broker exited during start-up; log "
                    + logFile
                    + ":\n"
                    + ItPaths.tail(logFile, 40));
          }
          return !admin().describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
        });
  }

  /** Whether the latest launch's log says a port could not be bound. */
  private boolean launchFailedToBind() {
    return ItPaths.saysPortInUse(ItPaths.readFrom(logFile, launchLogStart));
  }

  /** {@code 127.0.0.1:port}, the same across restarts. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  public Path logFile() {
    return logFile;
  }

  public boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** The process id of the running broker JVM. */
  public long pid() {
    if (process == null) {
      throw new IllegalStateException("The broker is not running");
    }
    return process.pid();
  }

  /** An admin client of this broker, shared and closed with it. */
  public synchronized Admin admin() {
    if (admin == null) {
      admin =
          Admin.create(
              Map.of(
                  AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                  AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000",
                  AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000"));
    }
    return admin;
  }

  public void createTopic(String name, int partitions) {
    createTopic(name, partitions, Map.of());
  }

  /** Creates a topic with one replica and waits until each partition has a leader. */
  public void createTopic(String name, int partitions, Map<String, String> topicConfig) {
    try {
      admin()
          .createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(topicConfig)))
          .all()
          .get(ADMIN_CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot create topic " + name, e);
    }
    Await.until(
        "leaders of the " + partitions + " partitions of topic " + name,
        ADMIN_CALL_TIMEOUT,
        () -> {
          TopicDescription description =
              admin()
                  .describeTopics(List.of(name))
                  .allTopicNames()
                  .get(5, TimeUnit.SECONDS)
                  .get(name);
          return description.partitions().size() == partitions
              && description.partitions().stream()
                  .allMatch(p -> p.leader() != null && !p.leader().isEmpty());
        });
  }

  /** A clean shutdown (SIGTERM); SIGKILL if it takes longer than 30 s. */
  public void stop() {
    if (process != null) {
      process.stop(STOP_GRACE);
    }
  }

  /** A crash: SIGKILL, no controlled shutdown. */
  public void kill() {
    if (process != null) {
      process.kill();
    }
  }

  /** Starts the broker again on the same ports and log directory (stopping it first if it runs). */
  public void restart() {
    stop();
    launch();
  }

  @Override
  public void close() {
    try {
      synchronized (this) {
        if (admin != null) {
          admin.close(Duration.ofSeconds(5));
          admin = null;
        }
      }
    } finally {
      stop();
    }
  }

  @Override
  public String toString() {
    return "KafkaBroker " + runtime.version() + " at " + bootstrapServers;
  }
}
