package dev.parquetconnect.it;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A distributed-mode Kafka Connect worker in a child JVM, from the jars of one {@link
 * KafkaRuntime}, with its REST API on 127.0.0.1 and plugins only from its {@code plugin.path}
 * (never from the test classpath). {@link #kill()} and {@link #restart()} simulate crashes; the
 * REST port and the internal topics stay the same across restarts, so the restarted worker resumes
 * the connectors, tasks and offsets of the killed one.
 */
public final class ConnectWorker implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ConnectWorker.class);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  /** Starts tried when a port chosen for the worker was taken before the worker could bind it. */
  private static final int START_ATTEMPTS = 3;

  private static final Duration STOP_GRACE = Duration.ofSeconds(30);

  /** The bound of one REST call (Connect's own limit is 90 s; no test should wait that long). */
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  /** Requests inside a wait loop: short, so that one hung request cannot outlast the wait. */
  private static final Duration POLL_REQUEST_TIMEOUT = Duration.ofSeconds(10);

  private final KafkaRuntime runtime;
  private final Path workDir;
  private final Path configFile;
  private final Path logFile;
  private final List<String> jvmOptions;
  private final Map<String, String> environment;
  private final URI restUri;
  private final int jmxPort;
  private final HttpClient http;
  private ChildJvm process;

  /**
   * The JVM options failsafe gives every worker of the integration tests ({@code
   * it.worker.jvm.options}, separated by spaces; none elsewhere, so {@code bin/bench worker} runs
   * workers as in production). The ITs pass {@code -XX:TieredStopAtLevel=1}: a test's worker lives
   * seconds to a minute, and C2's compilations cost more CPU than they save in that time (a start,
   * and 200,000 records through the sink, measured in docs/testing.md).
   */
  private static List<String> testJvmOptions() {
    String options = System.getProperty("it.worker.jvm.options", "").trim();
    return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
  }

  /**
   * Where the log of the latest launch begins: what an earlier run wrote says nothing of this one.
   */
  private long launchLogStart;

  private ConnectWorker(Builder builder, int restPort, int jmxPort) {
    this.runtime = builder.runtime;
    this.workDir = builder.workDir;
    this.configFile = workDir.resolve("worker.properties");
    this.logFile = workDir.resolve("worker.log");
    List<String> options = new ArrayList<>(List.of("-Xms128m", "-Xmx" + builder.heap));
    options.addAll(testJvmOptions());
    options.addAll(builder.extraJvmOptions);
    if (jmxPort > 0) {
      // The JDK's JMX agent, bound to the loopback address only (registry and connector on
      // one port), without authentication: the tests read MBeans from the worker JVM.
      options.addAll(
          List.of(
              "-Dcom.sun.management.jmxremote.port=" + jmxPort,
              "-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort,
              "-Dcom.sun.management.jmxremote.host=" + ItPaths.LOOPBACK,
              "-Djava.rmi.server.hostname=" + ItPaths.LOOPBACK,
              "-Dcom.sun.management.jmxremote.authenticate=false",
              "-Dcom.sun.management.jmxremote.ssl=false",
              "-Dcom.sun.management.jmxremote.local.only=true"));
    }
    this.jvmOptions = List.copyOf(options);
    this.environment = new LinkedHashMap<>(builder.environment);
    this.jmxPort = jmxPort;
    this.restUri = URI.create("http://" + ItPaths.LOOPBACK + ":" + restPort);
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  }

  /**
   * A worker of {@code runtime} connected to {@code bootstrapServers}; set it up, then {@link
   * Builder#start()}.
   */
  public static Builder builder(KafkaRuntime runtime, String bootstrapServers) {
    return new Builder(runtime, bootstrapServers);
  }

  /** The worker's settings; everything but the work directory has a default. */
  public static final class Builder {
    private final KafkaRuntime runtime;
    private final String bootstrapServers;
    private final Map<String, String> overrides = new LinkedHashMap<>();
    private final List<String> extraJvmOptions = new ArrayList<>();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private Path workDir;
    private Path pluginPath = ItPaths.pluginDir();
    private String groupId = "connect-it";
    private String heap = "1g";
    private int restPort;
    private boolean jmxRemote;

    private Builder(KafkaRuntime runtime, String bootstrapServers) {
      this.runtime = runtime;
      this.bootstrapServers = bootstrapServers;
    }

    /** Where the worker's properties and log go (required). */
    public Builder workDir(Path dir) {
      this.workDir = dir;
      return this;
    }

    /** The worker's {@code plugin.path}; default {@code target/plugin}, the unpacked archive. */
    public Builder pluginPath(Path path) {
      this.pluginPath = path;
      return this;
    }

    /** The Connect group; its internal topics are {@code <group>-configs/-offsets/-status}. */
    public Builder groupId(String id) {
      this.groupId = id;
      return this;
    }

    /** A fixed REST port (e.g. 8083 for a quickstart); default a free one. */
    public Builder restPort(int port) {
      this.restPort = port;
      return this;
    }

    /**
     * Serve the worker JVM's MBeans over JMX on 127.0.0.1 at a port of its own ({@link
     * ConnectWorker#jmxServiceUrl()}).
     */
    public Builder jmxRemote() {
      this.jmxRemote = true;
      return this;
    }

    /** The worker's maximum heap, as for {@code -Xmx} (default {@code 1g}). */
    public Builder heap(String maxHeap) {
      this.heap = maxHeap;
      return this;
    }

    /** One more option of the worker JVM (e.g. a {@code -D} system property read by a plugin). */
    public Builder jvmOption(String option) {
      extraJvmOptions.add(option);
      return this;
    }

    /**
     * An environment variable of the worker process (e.g. the AWS SDK's {@code AWS_PROFILE});
     * {@code null} removes one the test JVM has, so that the worker does not inherit it.
     */
    public Builder environment(String name, String value) {
      environment.put(name, value);
      return this;
    }

    /**
     * A worker property that replaces or adds to the defaults (e.g. {@code
     * exactly.once.source.support}).
     */
    public Builder workerProperty(String name, String value) {
      overrides.put(name, value);
      return this;
    }

    /**
     * Starts the worker and waits until its REST API serves requests for the joined cluster. A port
     * chosen here can be taken by another process before the worker binds it; then the worker is
     * started again with new ports (unless its REST port is fixed).
     */
    public ConnectWorker start() {
      if (workDir == null) {
        throw new IllegalStateException("ConnectWorker.Builder needs a workDir");
      }
      if (!Files.isDirectory(pluginPath)) {
        // Connect would only log this and start without our plugin.
        throw new IllegalStateException(
            "The plugin path "
                + pluginPath
                + " does not exist; `mvn package` "
                + "unpacks the plugin archive into target/plugin");
      }
      for (int attempt = 1; ; attempt++) {
        List<Integer> ports = ItPaths.freePorts(2);
        int port = restPort > 0 ? restPort : ports.get(0);
        ConnectWorker worker = new ConnectWorker(this, port, jmxRemote ? ports.get(1) : 0);
        Properties config = defaultConfig(port);
        config.putAll(overrides);
        try {
          worker.writeConfig(config);
          worker.launch();
          return worker;
        } catch (RuntimeException e) {
          worker.close();
          if (attempt < START_ATTEMPTS && restPort == 0 && worker.launchFailedToBind()) {
            LOG.warn(
                "{}: a port was taken before the worker could bind it (attempt {} of {}); "
                    + "starting again with new ports",
                worker,
                attempt,
                START_ATTEMPTS);
            continue;
          }
          throw e;
        }
      }
    }

    private Properties defaultConfig(int restPort) {
      Properties config = new Properties();
      config.setProperty("bootstrap.servers", bootstrapServers);
      config.setProperty("group.id", groupId);
      config.setProperty("listeners", "http://" + ItPaths.LOOPBACK + ":" + restPort);
      config.setProperty("rest.advertised.host.name", ItPaths.LOOPBACK);
      config.setProperty("rest.advertised.port", Integer.toString(restPort));
      config.setProperty("plugin.path", pluginPath.toAbsolutePath().toString());
      // Our archive declares its connectors in ServiceLoader manifests, and Kafka's own
      // plugins have theirs since 3.6: loading them (service_load, KIP-898) spares every
      // start the reflective scan of each jar that dominated it. Another plugin path may hold
      // plugins without manifests: one reflective scan (only_scan) finds them, where the
      // default hybrid_warn scans a second time for the manifests.
      config.setProperty(
          "plugin.discovery",
          pluginPath.equals(ItPaths.pluginDir()) ? "service_load" : "only_scan");
      config.setProperty("key.converter", "org.apache.kafka.connect.json.JsonConverter");
      config.setProperty("value.converter", "org.apache.kafka.connect.json.JsonConverter");
      config.setProperty("config.storage.topic", groupId + "-configs");
      config.setProperty("offset.storage.topic", groupId + "-offsets");
      config.setProperty("status.storage.topic", groupId + "-status");
      config.setProperty("config.storage.replication.factor", "1");
      config.setProperty("offset.storage.replication.factor", "1");
      config.setProperty("status.storage.replication.factor", "1");
      config.setProperty("offset.storage.partitions", "5");
      config.setProperty("status.storage.partitions", "1");
      // Offsets are committed every second, so a kill loses (and replays) little.
      config.setProperty("offset.flush.interval.ms", "1000");
      // A killed worker's group membership and its sink tasks' consumer memberships expire
      // within seconds, and lost tasks are reassigned at once instead of after 5 minutes.
      config.setProperty("session.timeout.ms", "6000");
      config.setProperty("heartbeat.interval.ms", "1000");
      config.setProperty("scheduled.rebalance.max.delay.ms", "0");
      config.setProperty("consumer.session.timeout.ms", "6000");
      config.setProperty("consumer.heartbeat.interval.ms", "1000");
      // Tests may tune a connector's clients (e.g. max.poll.records) in its own config.
      config.setProperty("connector.client.config.override.policy", "All");
      return config;
    }
  }

  private void writeConfig(Properties config) {
    try {
      Files.createDirectories(workDir);
      try (Writer writer = Files.newBufferedWriter(configFile)) {
        config.store(writer, "ConnectWorker of the integration tests, " + runtime);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + configFile, e);
    }
  }

  private void launch() {
    launchLogStart = ItPaths.size(logFile);
    List<String> command =
        runtime.javaCommand(
            "connect-worker",
            workDir,
            jvmOptions,
            KafkaRuntime.CONNECT_DISTRIBUTED_MAIN,
            List.of(configFile.toString()));
    ChildJvm started =
        ChildJvm.start(
            "connect-worker " + runtime.version(), command, workDir, logFile, environment);
    process = started;
    // GET /connectors needs the herder to have joined the group and read the config topic,
    // so a 200 there means the worker accepts connector requests, not only that Jetty runs.
    Await.until(
        "Connect " + runtime.version() + " worker at " + restUri + " to serve requests",
        START_TIMEOUT,
        () -> {
          if (!started.isAlive()) {
            throw new Await.Aborted(
                "The worker exited during start-up; log "
                    + logFile
                    + ":\n"
                    + ItPaths.tail(logFile, 40));
          }
          return send("GET", "/connectors", null, POLL_REQUEST_TIMEOUT).status() == 200;
        });
  }

  /** An HTTP status and the parsed JSON body (null when the body is empty). */
  public record RestResponse(int status, JsonNode body) {
    public boolean isSuccess() {
      return status >= 200 && status < 300;
    }
  }

  /** One connector's state and its tasks' states, from {@code GET /connectors/NAME/status}. */
  public record ConnectorStatus(String connectorState, List<TaskStatus> tasks, JsonNode json) {
    public boolean isRunning(int expectedTasks) {
      return "RUNNING".equals(connectorState)
          && tasks.size() == expectedTasks
          && tasks.stream().allMatch(task -> "RUNNING".equals(task.state()));
    }
  }

  /** A task's id, state and (for a failed task) the stack trace the worker reports. */
  public record TaskStatus(int id, String state, String trace) {}

  public URI restUri() {
    return restUri;
  }

  /** Whether the latest launch's log says a port could not be bound. */
  private boolean launchFailedToBind() {
    return ItPaths.saysPortInUse(ItPaths.readFrom(logFile, launchLogStart));
  }

  /** The JMX address of the worker JVM, if its builder asked for {@link Builder#jmxRemote()}. */
  public String jmxServiceUrl() {
    if (jmxPort == 0) {
      throw new IllegalStateException("The worker was started without jmxRemote()");
    }
    return "service:jmx:rmi:///jndi/rmi://" + ItPaths.LOOPBACK + ":" + jmxPort + "/jmxrmi";
  }

  /** The worker's stdout and stderr over all its restarts, for tests that read its logging. */
  public Path logFile() {
    return logFile;
  }

  public boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** The process id of the running worker JVM. */
  public long pid() {
    if (process == null) {
      throw new IllegalStateException("The worker is not running");
    }
    return process.pid();
  }

  /** {@code GET /}: the worker's version, commit and Kafka cluster id. */
  public JsonNode serverInfo() {
    return require("GET", "/", null);
  }

  /** {@code GET /connector-plugins}: the connector classes the worker found. */
  public JsonNode connectorPlugins() {
    return require("GET", "/connector-plugins", null);
  }

  /** {@code PUT /connectors/NAME/config}: creates or reconfigures a connector. */
  public JsonNode putConnectorConfig(String name, Map<String, String> config) {
    return require("PUT", "/connectors/" + encode(name) + "/config", Json.write(config));
  }

  /**
   * {@code PUT /connector-plugins/CLASS/config/validate}: the worker's verdict on a config (the
   * response lists every key with its errors; {@code error_count} sums them).
   */
  public JsonNode validateConnectorConfig(String connectorClass, Map<String, String> config) {
    return require(
        "PUT",
        "/connector-plugins/" + encode(connectorClass) + "/config/validate",
        Json.write(config));
  }

  public ConnectorStatus connectorStatus(String name) {
    return parseStatus(require("GET", "/connectors/" + encode(name) + "/status", null));
  }

  private static ConnectorStatus parseStatus(JsonNode json) {
    List<TaskStatus> tasks = new ArrayList<>();
    for (JsonNode task : json.path("tasks")) {
      tasks.add(
          new TaskStatus(
              task.path("id").asInt(),
              task.path("state").asText(),
              task.path("trace").asText(null)));
    }
    return new ConnectorStatus(
        json.path("connector").path("state").asText(), List.copyOf(tasks), json);
  }

  /** {@code DELETE /connectors/NAME}. */
  public void deleteConnector(String name) {
    require("DELETE", "/connectors/" + encode(name), null);
  }

  /** {@code POST /connectors/NAME/tasks/ID/restart}. */
  public void restartTask(String name, int taskId) {
    require("POST", "/connectors/" + encode(name) + "/tasks/" + taskId + "/restart", null);
  }

  /** Waits until the connector and exactly {@code expectedTasks} tasks are RUNNING. */
  public ConnectorStatus awaitConnectorRunning(String name, int expectedTasks, Duration timeout) {
    return awaitConnectorStatus(
        name,
        "connector " + name + " and " + expectedTasks + " task(s) RUNNING",
        timeout,
        status -> status.isRunning(expectedTasks));
  }

  /**
   * Waits until the connector's status satisfies {@code condition} (e.g. a task FAILED). The
   * timeout message carries the last status seen, with any task's stack trace.
   */
  public ConnectorStatus awaitConnectorStatus(
      String name, String description, Duration timeout, Predicate<ConnectorStatus> condition) {
    AtomicReference<ConnectorStatus> last = new AtomicReference<>();
    try {
      Await.until(
          description,
          timeout,
          () -> {
            requireAlive();
            RestResponse response =
                send("GET", "/connectors/" + encode(name) + "/status", null, POLL_REQUEST_TIMEOUT);
            if (!response.isSuccess()) {
              return false;
            }
            last.set(parseStatus(response.body()));
            return condition.test(last.get());
          });
      return last.get();
    } catch (IllegalStateException e) {
      throw new IllegalStateException(
          e.getMessage() + "; last status: " + (last.get() == null ? "none" : last.get().json()),
          e);
    }
  }

  /** Waits until the connector no longer exists (after {@link #deleteConnector}). */
  public void awaitConnectorDeleted(String name, Duration timeout) {
    Await.until(
        "connector " + name + " to be deleted",
        timeout,
        () ->
            send("GET", "/connectors/" + encode(name), null, POLL_REQUEST_TIMEOUT).status() == 404);
  }

  /**
   * Any REST call: {@code body} is JSON text or null. Returns the status and body whatever the
   * status; {@link #require} is the variant that insists on success.
   */
  public RestResponse send(String method, String path, String body) {
    return send(method, path, body, REQUEST_TIMEOUT);
  }

  private RestResponse send(String method, String path, String body, Duration timeout) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(restUri.resolve(path))
            .timeout(timeout)
            .header("Accept", "application/json");
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request
          .header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    }
    try {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      String text = response.body();
      return new RestResponse(
          response.statusCode(), text == null || text.isBlank() ? null : Json.read(text));
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + path + " on " + restUri + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted during " + method + " " + path, e);
    }
  }

  /** A REST call that must succeed (2xx); its JSON body. */
  public JsonNode require(String method, String path, String body) {
    RestResponse response = send(method, path, body);
    if (!response.isSuccess()) {
      throw new IllegalStateException(
          method + " " + path + " answered " + response.status() + ": " + response.body());
    }
    return response.body();
  }

  private void requireAlive() {
    if (!isRunning()) {
      throw new Await.Aborted(
          "The Connect worker is not running; log " + logFile + ":\n" + ItPaths.tail(logFile, 40));
    }
  }

  private static String encode(String pathSegment) {
    return URLEncoder.encode(pathSegment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** A clean shutdown (SIGTERM); SIGKILL if it takes longer than 30 s. */
  public void stop() {
    if (process != null) {
      process.stop(STOP_GRACE);
    }
  }

  /** A crash: SIGKILL to the worker JVM and any process it started; no task is stopped cleanly. */
  public void kill() {
    if (process != null) {
      process.kill();
    }
  }

  /**
   * Starts the worker again with the same configuration and REST port (stopping it first if it
   * runs).
   */
  public void restart() {
    stop();
    launch();
  }

  @Override
  public void close() {
    stop();
  }

  @Override
  public String toString() {
    return "ConnectWorker " + runtime.version() + " at " + restUri;
  }
}
