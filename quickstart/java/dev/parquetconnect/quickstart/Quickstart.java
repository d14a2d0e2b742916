package dev.parquetconnect.quickstart;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.lang.reflect.Field;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.connect.cli.ConnectDistributed;
import org.apache.kafka.connect.runtime.Connect;

/**
 * {@code bin/quickstart}: a single-node KRaft Kafka and a distributed Connect worker in this one
 * JVM, both on 127.0.0.1, with the plugin installed from its archive and everything (broker log,
 * installed plugin, our log file, and the lake the example sink writes) under one data directory.
 * Prints {@code ready} once the broker accepts clients and the worker accepts connector requests.
 * On SIGTERM or Ctrl-C it stops the worker first (its tasks commit and close their files while the
 * broker is still there), then the broker, and prints {@code stopped}; the JVM then exits with 128
 * + the signal number (143 for SIGTERM, 130 for Ctrl-C), as every JVM ended by a signal does.
 *
 * <p>Not part of the plugin: it runs on the jars of a Kafka distribution (see {@code
 * quickstart/pom.xml}).
 */
public final class Quickstart {

  static final String LOOPBACK = "127.0.0.1";
  private static final int NODE_ID = 1;
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration STOP_TIMEOUT = Duration.ofMinutes(1);

  private final Options options;
  private final PrintStream out;
  private final Path kafkaDir;
  private final Path pluginDir;
  private final Path logFile;
  private volatile KafkaRaftServer broker;
  private volatile Connect<?> connect;

  private Quickstart(Options options, PrintStream out) {
    this.options = options;
    this.out = out;
    this.kafkaDir = options.dataDir.resolve("kafka");
    this.pluginDir = options.dataDir.resolve("plugins");
    this.logFile = options.dataDir.resolve("logs").resolve("quickstart.log");
  }

  public static void main(String[] args) {
    Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("quickstart: " + e.getMessage());
      System.err.println(Options.USAGE);
      System.exit(2);
      return;
    }
    Quickstart quickstart = new Quickstart(options, System.out);
    try {
      quickstart.start();
    } catch (StartException e) {
      // System.exit runs the shutdown hook, which stops whatever had started.
      System.err.println("quickstart: " + e.getMessage());
      System.exit(e.exitCode);
    } catch (RuntimeException | IOException e) {
      System.err.println(
          "quickstart: start-up failed: " + e + "; details in " + quickstart.logFile);
      System.exit(1);
    }
    // Non-daemon threads of the broker and the worker keep the JVM alive until a signal.
    quickstart.broker.awaitShutdown();
  }

  private void start() throws IOException {
    for (int port : List.of(options.kafkaPort, options.controllerPort, options.restPort)) {
      requireFree(port);
    }
    Files.createDirectories(kafkaDir);
    // From here on, a signal (or a failed start) stops whatever has started, in order.
    Runtime.getRuntime().addShutdownHook(new Thread(this::stopOnSignal, "quickstart-shutdown"));
    out.println("quickstart: data in " + options.dataDir + ", logs in " + logFile);
    PluginInstaller.install(options.pluginArchive, pluginDir);
    out.println(
        "quickstart: plugin installed from " + options.pluginArchive + " into " + pluginDir);

    startBroker();
    out.println("quickstart: Kafka broker listening on " + bootstrapServers());
    startConnect();
    out.println("quickstart: Connect worker listening on " + restUrl());
    out.println("ready");
    out.flush();
  }

  private String bootstrapServers() {
    return LOOPBACK + ":" + options.kafkaPort;
  }

  private String restUrl() {
    return "http://" + LOOPBACK + ":" + options.restPort;
  }

  /** Fails with a message a user can act on, instead of a bind error deep in a log. */
  private static void requireFree(int port) {
    try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getByName(LOOPBACK))) {
      probe.setReuseAddress(true);
    } catch (BindException e) {
      throw new StartException(
          2,
          "port "
              + port
              + " on "
              + LOOPBACK
              + " is in use (another Kafka, Connect "
              + "worker or quickstart?): stop that process and start again");
    } catch (IOException e) {
      throw new StartException(2, "cannot probe port " + port + " on " + LOOPBACK + ": " + e);
    }
  }

  private void startBroker() throws IOException {
    Path configFile = kafkaDir.resolve("server.properties");
    Properties config = brokerConfig();
    try (Writer writer = Files.newBufferedWriter(configFile)) {
      config.store(writer, "the quickstart's broker (rewritten at every start)");
    }
    // Formatted once: later starts find meta.properties and keep the topics of earlier runs.
    if (!Files.exists(kafkaDir.resolve("data").resolve("meta.properties"))) {
      String[] format = {"format", "-t", Uuid.randomUuid().toString(), "-c", configFile.toString()};
      int exitCode =
          StorageTool.execute(
              format,
              new PrintStream(
                  Files.newOutputStream(kafkaDir.resolve("format.log")),
                  true,
                  StandardCharsets.UTF_8));
      if (exitCode != 0) {
        throw new StartException(
            1,
            "formatting the broker storage failed (exit code "
                + exitCode
                + "); see "
                + kafkaDir.resolve("format.log"));
      }
    }
    broker = new KafkaRaftServer(KafkaConfig.fromProps(config, false), Time.SYSTEM);
    broker.startup();
    awaitBroker();
  }

  private Properties brokerConfig() {
    Properties config = new Properties();
    config.setProperty("process.roles", "broker,controller");
    config.setProperty("node.id", Integer.toString(NODE_ID));
    config.setProperty(
        "controller.quorum.voters", NODE_ID + "@" + LOOPBACK + ":" + options.controllerPort);
    config.setProperty(
        "listeners",
        "PLAINTEXT://"
            + LOOPBACK
            + ":"
            + options.kafkaPort
            + ",CONTROLLER://"
            + LOOPBACK
            + ":"
            + options.controllerPort);
    config.setProperty("advertised.listeners", "PLAINTEXT://" + bootstrapServers());
    config.setProperty("controller.listener.names", "CONTROLLER");
    config.setProperty("inter.broker.listener.name", "PLAINTEXT");
    config.setProperty(
        "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    config.setProperty("log.dirs", kafkaDir.resolve("data").toString());
    // One node: every internal topic with one replica, few partitions (quick to create).
    config.setProperty("offsets.topic.replication.factor", "1");
    config.setProperty("offsets.topic.num.partitions", "3");
    config.setProperty("transaction.state.log.replication.factor", "1");
    config.setProperty("transaction.state.log.min.isr", "1");
    config.setProperty("transaction.state.log.num.partitions", "3");
    config.setProperty("share.coordinator.state.topic.replication.factor", "1");
    config.setProperty("share.coordinator.state.topic.min.isr", "1");
    config.setProperty("group.initial.rebalance.delay.ms", "0");
    config.setProperty("num.partitions", "3");
    return config;
  }

  private void awaitBroker() {
    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000"))) {
      awaitTrue(
          "the broker to accept clients on " + bootstrapServers(),
          () -> !admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).isEmpty());
    }
  }

  private void startConnect() {
    connect = new ConnectDistributed().startConnect(workerConfig());
    // Connect adds a shutdown hook of its own, which would stop the worker concurrently with
    // ours, which stops the broker: a worker stopping after its broker waits for timeouts.
    // Ours stops both, in order.
    removeConnectShutdownHook(connect);
    removeJettyShutdownHook();
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    // GET /connectors answers 200 once the worker has joined its group and read the config
    // topic, i.e. when it accepts connector requests, not merely when Jetty listens.
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(restUrl() + "/connectors"))
            .timeout(Duration.ofSeconds(10))
            .GET()
            .build();
    awaitTrue(
        "the Connect worker to serve " + restUrl(),
        () -> http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
  }

  private Map<String, String> workerConfig() {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("bootstrap.servers", bootstrapServers());
    config.put("group.id", "quickstart");
    config.put("listeners", restUrl());
    config.put("rest.advertised.host.name", LOOPBACK);
    config.put("rest.advertised.port", Integer.toString(options.restPort));
    config.put("plugin.path", pluginDir.toString());
    // The only plugins outside the classpath are ours; one scan finds them (the default
    // hybrid mode scans twice).
    config.put("plugin.discovery", "only_scan");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "false");
    config.put("config.storage.topic", "quickstart-connect-configs");
    config.put("offset.storage.topic", "quickstart-connect-offsets");
    config.put("status.storage.topic", "quickstart-connect-status");
    config.put("config.storage.replication.factor", "1");
    config.put("offset.storage.replication.factor", "1");
    config.put("status.storage.replication.factor", "1");
    config.put("offset.storage.partitions", "3");
    config.put("status.storage.partitions", "1");
    // The source replays exactly once only with this (KIP-618).
    config.put("exactly.once.source.support", "enabled");
    // ${env:PARQUET_LAKE_URL} in a connector config reads the variable bin/quickstart sets
    // (file:///<data>/lake), so config/*.json need no machine-specific path.
    config.put("config.providers", "env");
    config.put(
        "config.providers.env.class",
        "org.apache.kafka.common.config.provider.EnvVarConfigProvider");
    config.put("offset.flush.interval.ms", "5000");
    return config;
  }

  private static void removeConnectShutdownHook(Connect<?> connect) {
    try {
      Field field = Connect.class.getDeclaredField("shutdownHook");
      field.setAccessible(true);
      Runtime.getRuntime().removeShutdownHook((Thread) field.get(connect));
    } catch (ReflectiveOperationException | RuntimeException e) {
      // Another Kafka version: both hooks run; ours still waits for the worker to stop
      // (herderTask) before it stops the broker.
    }
  }

  /**
   * Jetty's own shutdown hook (its {@code ShutdownThread}, registered when Connect's REST server
   * starts) stopped the REST server concurrently with ours: once, on CI, Connect's {@code
   * RestServer.stop} then never returned ("Unable to destroy ... STARTED" from Jetty's hook, no
   * "REST server stopped"), and the quickstart did not exit. Our hook stops the worker, REST server
   * included, so Jetty's is removed. By reflection: Kafka 3.x and 4.x ship different Jetty
   * versions, both with this class.
   */
  private static void removeJettyShutdownHook() {
    try {
      Class<?> shutdownThread = Class.forName("org.eclipse.jetty.util.thread.ShutdownThread");
      Runtime.getRuntime()
          .removeShutdownHook((Thread) shutdownThread.getMethod("getInstance").invoke(null));
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      // No such Jetty: both hooks run, as before; the stop below is bounded all the same.
    }
  }

  /** The shutdown hook: the worker first, then the broker. */
  private void stopOnSignal() {
    out.println("quickstart: stopping the Connect worker and the broker...");
    out.flush();
    boolean clean = stopQuietly();
    out.println(clean ? "stopped" : "stopped (not cleanly; see " + logFile + ")");
    out.flush();
  }

  /**
   * @return whether everything that had started stopped within the timeouts
   */
  private boolean stopQuietly() {
    boolean clean = true;
    if (connect != null) {
      // Bounded: a worker whose stop hangs must not keep the broker running and the
      // process alive (the user's Ctrl-C would seem to do nothing).
      Thread stopper = new Thread(connect::stop, "quickstart-stop-connect");
      stopper.setDaemon(true);
      stopper.start();
      try {
        stopper.join(STOP_TIMEOUT.toMillis());
        if (stopper.isAlive()) {
          clean = false;
        } else {
          connect.herderTask().get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
      } catch (Exception e) {
        clean = false;
      }
    }
    if (broker != null) {
      try {
        broker.shutdown();
        broker.awaitShutdown();
      } catch (RuntimeException e) {
        clean = false;
      }
    }
    return clean;
  }

  /** A condition that may throw while the thing it probes is not up yet. */
  private interface Probe {
    boolean test() throws Exception;
  }

  private void awaitTrue(String what, Probe probe) {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (probe.test()) {
          return;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StartException(1, "interrupted while waiting for " + what);
      } catch (Exception e) {
        last = e;
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StartException(1, "interrupted while waiting for " + what);
      }
    }
    throw new StartException(
        1,
        "timed out after "
            + START_TIMEOUT.toSeconds()
            + " s waiting for "
            + what
            + (last == null ? "" : " (last error: " + last + ")")
            + "; see "
            + logFile);
  }

  /**
   * A start-up failure with the exit code it ends the process with (2: usage, 1: anything else).
   */
  static final class StartException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int exitCode;

    StartException(int exitCode, String message) {
      super(message);
      this.exitCode = exitCode;
    }
  }

  /**
   * The command line: {@code --data DIR --plugin-archive ZIP [--kafka-port N] [--controller-port N]
   * [--rest-port N]}.
   */
  static final class Options {
    static final String USAGE =
        "usage: quickstart --data DIR --plugin-archive ZIP "
            + "[--kafka-port 9092] [--controller-port 9093] [--rest-port 8083]";

    Path dataDir;
    Path pluginArchive;
    int kafkaPort = 9092;
    int controllerPort = 9093;
    int restPort = 8083;

    static Options parse(String[] args) {
      Options options = new Options();
      for (int i = 0; i < args.length; i++) {
        String name = args[i];
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(name + " needs a value");
        }
        String value = args[++i];
        switch (name) {
          case "--data" -> options.dataDir = Paths.get(value).toAbsolutePath().normalize();
          case "--plugin-archive" ->
              options.pluginArchive = Paths.get(value).toAbsolutePath().normalize();
          case "--kafka-port" -> options.kafkaPort = port(name, value);
          case "--controller-port" -> options.controllerPort = port(name, value);
          case "--rest-port" -> options.restPort = port(name, value);
          default -> throw new IllegalArgumentException("unknown option " + name);
        }
      }
      if (options.dataDir == null || options.pluginArchive == null) {
        throw new IllegalArgumentException("--data and --plugin-archive are required");
      }
      if (!Files.isRegularFile(options.pluginArchive)) {
        throw new IllegalArgumentException(
            "the plugin archive " + options.pluginArchive + " does not exist");
      }
      return options;
    }

    private static int port(String name, String value) {
      try {
        int port = Integer.parseInt(value);
        if (port < 1 || port > 65535) {
          throw new NumberFormatException();
        }
        return port;
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + " must be a port number (1-65535), not " + value);
      }
    }
  }
}
