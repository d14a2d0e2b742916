package dev.parquetconnect.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;

/**
 * The plugin archive {@code mvn package} builds, as Confluent Hub and a worker's {@code
 * plugin.path} expect it: {@code <name>/manifest.json}, {@code lib/} with our jar and its runtime
 * dependencies but none of Kafka's own classes (the worker provides them, and a second copy inside
 * a plugin breaks Connect's isolation), {@code doc/}, {@code etc/}.
 */
final class PluginArchiveIT {
  private static final String PLUGIN = "kafka-connect-parquet";

  /** Jars the worker provides; inside a plugin they would shadow or clash with its own. */
  private static final Pattern WORKER_JARS =
      Pattern.compile(
          "(kafka-clients|kafka_2\\.\\d+|kafka-server.*|kafka-storage.*|connect-(api|runtime|json|"
              + "transforms|mirror.*|basic-auth-extension)|slf4j-api|slf4j-reload4j|log4j.*|"
              + "reload4j)-[0-9].*\\.jar");

  private static Path archive() throws IOException {
    Path target = ItPaths.pluginDir().getParent();
    try (Stream<Path> files = Files.list(target)) {
      List<Path> zips =
          files.filter(p -> p.getFileName().toString().matches(PLUGIN + "-.+\\.zip")).toList();
      assertEquals(1, zips.size(), "one plugin zip in " + target + " (mvn package): " + zips);
      return zips.get(0);
    }
  }

  @Test
  void theZipHasTheConfluentHubLayoutAndNoKafkaJars() throws Exception {
    Path zip = archive();
    String version =
        zip.getFileName()
            .toString()
            .substring(
                PLUGIN.length() + 1, zip.getFileName().toString().length() - ".zip".length());
    Set<String> names = new TreeSet<>();
    try (ZipFile file = new ZipFile(zip.toFile())) {
      file.stream().map(ZipEntry::getName).forEach(names::add);
      for (String name : names) {
        assertTrue(name.startsWith(PLUGIN + "/"), "everything under " + PLUGIN + "/: " + name);
      }

      JsonNode manifest;
      try (InputStream in = file.getInputStream(file.getEntry(PLUGIN + "/manifest.json"))) {
        manifest = Json.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
      assertEquals(PLUGIN, manifest.path("name").asText());
      assertEquals(version, manifest.path("version").asText());
      for (String field : List.of("title", "description", "release_date")) {
        assertFalse(manifest.path(field).asText().isBlank(), field);
        assertFalse(manifest.path(field).asText().contains("${"), field + " is filtered");
      }
      assertTrue(manifest.path("release_date").asText().matches("\\d{4}-\\d{2}-\\d{2}"));
      assertEquals("parquetconnect", manifest.path("owner").path("username").asText());
      assertEquals(List.of("sink", "source"), strings(manifest.path("component_types")));
      assertFalse(manifest.path("license").path(0).path("name").asText().isBlank());
      assertTrue(manifest.path("features").path("kafka_connect_api").asBoolean());

      assertTrue(names.contains(PLUGIN + "/lib/" + PLUGIN + "-" + version + ".jar"), "our jar");
      assertTrue(names.contains(PLUGIN + "/doc/README.md"));
      assertTrue(names.contains(PLUGIN + "/doc/configuration.md"));
      assertTrue(names.contains(PLUGIN + "/doc/operations.md"));
      assertTrue(names.contains(PLUGIN + "/doc/architecture.md"));
      Path config = Path.of(System.getProperty("repo.root", ".."), "config");
      if (Files.isDirectory(config)) {
        try (Stream<Path> examples = Files.list(config)) {
          for (Path example : examples.filter(p -> p.toString().endsWith(".json")).toList()) {
            assertTrue(
                names.contains(PLUGIN + "/etc/" + example.getFileName()),
                "example config " + example + " in etc/");
          }
        }
      }

      List<String> workerJars = new ArrayList<>();
      List<String> kafkaClasses = new ArrayList<>();
      for (String name : names) {
        if (!name.startsWith(PLUGIN + "/lib/") || name.endsWith("/")) {
          continue;
        }
        String jar = name.substring((PLUGIN + "/lib/").length());
        assertTrue(
            jar.endsWith(".jar") && !jar.contains("/"), "only jars directly in lib/: " + name);
        if (WORKER_JARS.matcher(jar).matches()) {
          workerJars.add(jar);
        }
        // A shaded copy of Kafka classes is as bad as the jar itself.
        try (ZipInputStream nested = new ZipInputStream(file.getInputStream(file.getEntry(name)))) {
          for (ZipEntry e; (e = nested.getNextEntry()) != null; ) {
            if (e.getName().startsWith("org/apache/kafka/")) {
              kafkaClasses.add(jar + "!" + e.getName());
              break;
            }
          }
        }
      }
      assertEquals(List.of(), workerJars, "lib/ holds jars the worker provides");
      assertEquals(List.of(), kafkaClasses, "lib/ holds Kafka classes");
    }
  }

  @Test
  void theUnpackedPluginDirectoryIsTheSameTree() throws Exception {
    Path zip = archive();
    Set<String> zipped = new TreeSet<>();
    try (ZipFile file = new ZipFile(zip.toFile())) {
      file.stream().filter(e -> !e.isDirectory()).map(ZipEntry::getName).forEach(zipped::add);
    }
    Set<String> unpacked = new TreeSet<>();
    Path dir = ItPaths.pluginDir();
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.filter(Files::isRegularFile)
          .map(p -> dir.relativize(p).toString().replace('\\', '/'))
          .forEach(unpacked::add);
    }
    assertEquals(zipped, unpacked, "target/plugin is the zip unpacked");
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
