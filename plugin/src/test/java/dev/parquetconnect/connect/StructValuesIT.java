package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.KafkaRuntime;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/**
 * {@link StructValues}' fast path (values stored into Connect's private {@code Struct.values},
 * skipping the validation of {@code put}) is taken on the oldest Connect API the plugin supports
 * (3.6, the compile API on the test classpath) and on the Kafka releases the integration tests run
 * (4.3 and 3.9, from {@code target/kafka-runtime/}, in a child JVM each): if a Connect release
 * renames or retypes that field, this fails instead of the source silently slowing down.
 */
class StructValuesIT {

  @Test
  void fastPathOnTheCompileApi() {
    String api = Struct.class.getProtectionDomain().getCodeSource().getLocation().toString();
    assertTrue(api.contains("connect-api-3.6."), "the test classpath's Connect API: " + api);
    assertTrue(StructValues.direct(), "Struct.values is not reachable on " + api);
  }

  @Test
  void fastPathOnTheNewestRuntime() throws Exception {
    assertFastPath(KafkaRuntime.defaultVersion());
  }

  @Test
  void fastPathOnTheCompatibilityRuntime() throws Exception {
    assertFastPath(KafkaRuntime.compatibilityVersion());
  }

  private static void assertFastPath(KafkaRuntime runtime) throws Exception {
    String classpath =
        String.join(
            File.pathSeparator,
            runtime.jarDir() + File.separator + "*",
            location(StructValues.class).toString(),
            location(StructValuesProbe.class).toString());
    Process child =
        new ProcessBuilder(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                classpath,
                StructValuesProbe.class.getName())
            .redirectErrorStream(true)
            .start();
    if (!child.waitFor(60, TimeUnit.SECONDS)) {
      child.destroyForcibly();
      throw new AssertionError("the probe on Kafka " + runtime.version() + " did not finish");
    }
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, child.exitValue(), "Kafka " + runtime.version() + ": " + out);
    List<String> lines = out.lines().filter(l -> l.startsWith("direct=")).toList();
    assertEquals(1, lines.size(), out);
    assertTrue(lines.get(0).contains("connect-api-" + runtime.version() + ".jar"), out);
  }

  private static Path location(Class<?> type) throws Exception {
    return Paths.get(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }
}
