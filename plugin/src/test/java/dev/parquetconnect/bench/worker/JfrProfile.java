package dev.parquetconnect.bench.worker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JDK Flight Recorder recording of the worker JVM during one leg ({@code jcmd <pid> JFR.start}
 * with the {@code profile} settings: a stack sample of each running Java thread every 10 ms), and
 * its summary: the share of samples by who does the work, and the hottest methods.
 *
 * <p>A sample counts for the first frame, from the top of the stack down, that belongs to one of
 * the owners below; JDK frames ({@code java.}, {@code jdk.}, {@code sun.}) and Connect's data
 * classes ({@code Struct}, {@code Schema}, {@code SinkRecord}) count for whoever called them, so
 * the Structs JsonConverter builds are the converter's cost and the HashMap lookups of our task are
 * our task's. Samples of every other thread (the herder, the consumer's heartbeat, the producers of
 * the worker's internal topics) count as "other worker threads".
 */
final class JfrProfile {

  private static final String RECORDING = "workerbench";
  private static final String WORKER_TASK = "org.apache.kafka.connect.runtime.WorkerTask";

  /** Frame owners by class name prefix, checked in this order. */
  private static final Map<String, String> OWNERS = new LinkedHashMap<>();

  static {
    OWNERS.put("dev.parquetconnect.format.", "our task: Parquet codec (encoding, compression)");
    OWNERS.put("com.github.luben.zstd.", "our task: Parquet codec (encoding, compression)");
    OWNERS.put("dev.parquetconnect.", "our task: records to columns, files, commits");
    OWNERS.put("org.apache.kafka.connect.json.", "converter (JsonConverter, Jackson)");
    OWNERS.put("com.fasterxml.jackson.", "converter (JsonConverter, Jackson)");
    OWNERS.put("org.apache.kafka.connect.converters.", "converter (ByteArrayConverter)");
    OWNERS.put("org.apache.kafka.connect.storage.Converter", "converter (JsonConverter, Jackson)");
    OWNERS.put("org.apache.kafka.connect.runtime.", "framework: Connect runtime (WorkerSinkTask)");
    OWNERS.put("org.apache.kafka.clients.", "framework: Kafka consumer (fetch, decode)");
    OWNERS.put("org.apache.kafka.common.", "framework: Kafka consumer (fetch, decode)");
    OWNERS.put("org.apache.iceberg.", "Iceberg sink");
    OWNERS.put("org.apache.parquet.", "Iceberg sink");
  }

  private static final List<String> NEUTRAL =
      List.of(
          "java.",
          "jdk.",
          "sun.",
          "org.apache.kafka.connect.data.",
          "org.apache.kafka.connect.sink.");

  /** Native code whose samples are CPU work: the compression libraries (JNI). */
  private static final List<String> COMPRESSION =
      List.of("com.github.luben.zstd.", "org.xerial.snappy.", "net.jpountz.", "com.aayushatharva.");

  private final long pid;
  private final Path file;

  private JfrProfile(long pid, Path file) {
    this.pid = pid;
    this.file = file;
  }

  static JfrProfile start(long pid, Path file) throws IOException {
    jcmd(pid, "JFR.start", "name=" + RECORDING, "settings=profile", "filename=" + file);
    return new JfrProfile(pid, file);
  }

  /** Stops the recording (which writes its file) and summarises it. */
  String stopAndSummarise() throws IOException {
    jcmd(pid, "JFR.stop", "name=" + RECORDING);
    return summarise(file);
  }

  /** Summarises a recording made earlier: {@code JfrProfile FILE.jfr}. */
  public static void main(String[] args) throws IOException {
    System.out.print(summarise(Path.of(args[0])));
  }

  /**
   * The share of each owner in the samples, and the hottest methods. Java samples count once;
   * native samples (every 20 ms, twice the Java period) count twice, and only those in a
   * compression library: a thread in native code may as well be waiting (a socket, epoll), but
   * zstd-jni compressing a page is our codec's CPU, invisible to the Java samples.
   */
  static String summarise(Path file) throws IOException {
    Map<String, Integer> owners = new HashMap<>();
    Map<String, Integer> topFrames = new HashMap<>();
    int samples = 0;
    for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
      String type = event.getEventType().getName();
      boolean nativeSample = type.equals("jdk.NativeMethodSample");
      if (!nativeSample && !type.equals("jdk.ExecutionSample")) {
        continue;
      }
      RecordedStackTrace stack = event.getStackTrace();
      List<RecordedFrame> frames = stack == null ? List.of() : stack.getFrames();
      if (nativeSample && (frames.isEmpty() || !isCompression(frames.get(0)))) {
        continue;
      }
      int weight = nativeSample ? 2 : 1;
      samples += weight;
      String owner = isTaskThread(frames) ? owner(frames) : "other worker threads";
      owners.merge(owner, weight, Integer::sum);
      if (!frames.isEmpty()) {
        topFrames.merge(method(frames.get(0)), weight, Integer::sum);
      }
    }
    StringBuilder summary = new StringBuilder();
    summary.append(
        String.format(
            Locale.ROOT,
            "JFR %s: %d samples (Java, and native compression counted twice)%n",
            file,
            samples));
    for (Map.Entry<String, Integer> entry : sorted(owners)) {
      summary.append(
          String.format(
              Locale.ROOT,
              "  %5.1f%%  %s%n",
              100.0 * entry.getValue() / Math.max(1, samples),
              entry.getKey()));
    }
    summary.append("  hottest methods (top of stack):\n");
    for (Map.Entry<String, Integer> entry :
        sorted(topFrames).subList(0, Math.min(20, topFrames.size()))) {
      summary.append(
          String.format(
              Locale.ROOT,
              "  %5.1f%%  %s%n",
              100.0 * entry.getValue() / Math.max(1, samples),
              entry.getKey()));
    }
    return summary.toString();
  }

  private static boolean isCompression(RecordedFrame frame) {
    String type = frame.getMethod().getType().getName();
    return COMPRESSION.stream().anyMatch(type::startsWith);
  }

  /**
   * Whether a sample is of a connector's task thread: JFR keeps the name a thread started with
   * (Connect renames its pool threads to task-thread-NAME once they run a task), so the thread is
   * recognised by the task's run loop at the bottom of its stack.
   */
  private static boolean isTaskThread(List<RecordedFrame> frames) {
    for (int i = frames.size() - 1; i >= 0; i--) {
      if (frames.get(i).getMethod().getType().getName().equals(WORKER_TASK)) {
        return true;
      }
    }
    return false;
  }

  static String owner(List<RecordedFrame> frames) {
    for (RecordedFrame frame : frames) {
      String type = frame.getMethod().getType().getName();
      if (NEUTRAL.stream().anyMatch(type::startsWith)) {
        continue;
      }
      for (Map.Entry<String, String> owner : OWNERS.entrySet()) {
        if (type.startsWith(owner.getKey())) {
          return owner.getValue();
        }
      }
      return "other (" + type + ")";
    }
    return "JDK only (thread start-up, I/O)";
  }

  private static String method(RecordedFrame frame) {
    return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
  }

  private static List<Map.Entry<String, Integer>> sorted(Map<String, Integer> counts) {
    List<Map.Entry<String, Integer>> entries = new ArrayList<>(counts.entrySet());
    entries.sort(Map.Entry.<String, Integer>comparingByValue().reversed());
    return entries;
  }

  private static void jcmd(long pid, String... command) throws IOException {
    List<String> line = new ArrayList<>(List.of(jcmdPath(), Long.toString(pid)));
    line.addAll(List.of(command));
    Process jcmd = new ProcessBuilder(line).redirectErrorStream(true).start();
    try {
      String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!jcmd.waitFor(60, TimeUnit.SECONDS) || jcmd.exitValue() != 0) {
        throw new IOException(String.join(" ", line) + " failed: " + out);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted during " + String.join(" ", line), e);
    }
  }

  private static String jcmdPath() {
    return Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
  }
}
