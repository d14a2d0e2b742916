package dev.parquetconnect.iceberg.maintenance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.storage.StoreKeys;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a table must hold after crashes of its writers and its maintenance, checked on a local
 * warehouse: every produced (partition, offset) once with its value, every file a retained snapshot
 * references present, no old unreferenced data file left, no temporary file left behind.
 */
public final class MaintenanceTableChecks {
  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceTableChecks.class);

  private MaintenanceTableChecks() {}

  public static void assertEveryOffsetOnceWithItsValue(
      Table table,
      Map<Integer, NavigableMap<Long, Long>> produced,
      LongFunction<String> regionOf,
      String rounds)
      throws Exception {
    Map<String, Long> expected = new HashMap<>();
    produced.forEach((p, offsets) -> offsets.forEach((o, i) -> expected.put(p + "/" + o, i)));
    Map<String, Long> found = new HashMap<>();
    List<String> twice = new ArrayList<>();
    List<String> wrong = new ArrayList<>();
    try (CloseableIterable<Record> rows =
        IcebergGenerics.read(table)
            .select("id", "region", "__kafka_partition", "__kafka_offset")
            .build()) {
      for (Record row : rows) {
        String at = row.getField("__kafka_partition") + "/" + row.getField("__kafka_offset");
        long id = (Long) row.getField("id");
        if (found.put(at, id) != null) {
          twice.add(at);
        }
        if (!regionOf.apply(id).equals(row.getField("region"))) {
          wrong.add(at + " region " + row.getField("region"));
        }
      }
    }
    expected.forEach(
        (at, id) -> {
          Long got = found.get(at);
          if (got != null && got.longValue() != id) {
            wrong.add(at + " id " + got + " not " + id);
          }
        });
    Set<String> missing = new HashSet<>(expected.keySet());
    missing.removeAll(found.keySet());
    Set<String> extra = new HashSet<>(found.keySet());
    extra.removeAll(expected.keySet());
    assertEquals(List.of(), first(twice), "offsets twice in the table: " + rounds);
    assertEquals(List.of(), first(missing), missing.size() + " offsets missing: " + rounds);
    assertEquals(List.of(), first(extra), "offsets never produced: " + rounds);
    assertEquals(List.of(), first(wrong), "rows with another value: " + rounds);
    assertEquals(expected.size(), found.size(), rounds);
  }

  /**
   * Walks every retained snapshot: its manifest list, each of its manifests and each live data or
   * delete file entry in them must exist. Returns the snapshots, distinct manifests and distinct
   * files checked.
   */
  static int[] assertEveryRetainedSnapshotComplete(Table table, String rounds) throws Exception {
    List<String> missing = new ArrayList<>();
    Set<String> manifests = new HashSet<>();
    Set<String> files = new HashSet<>();
    int snapshots = 0;
    for (Snapshot snapshot : table.snapshots()) {
      snapshots++;
      String list = snapshot.manifestListLocation();
      if (list != null && !exists(list)) {
        missing.add("manifest list " + list + " of snapshot " + snapshot.snapshotId());
        continue;
      }
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        if (!manifests.add(manifest.path())) {
          continue;
        }
        if (!exists(manifest.path())) {
          missing.add("manifest " + manifest.path() + " of snapshot " + snapshot.snapshotId());
          continue;
        }
        try (CloseableIterable<String> paths = ManifestFiles.readPaths(manifest, table.io())) {
          for (String path : paths) {
            if (files.add(path) && !exists(path)) {
              missing.add("data file " + path + " of snapshot " + snapshot.snapshotId());
            }
          }
        }
      }
    }
    assertEquals(List.of(), first(missing), "files retained snapshots reference: " + rounds);
    assertTrue(snapshots > 0 && !files.isEmpty(), rounds);
    return new int[] {snapshots, manifests.size(), files.size()};
  }

  private static boolean exists(String location) {
    return Files.exists(path(location));
  }

  /** A local location, as a URI ({@code file:/...}) or a plain path. */
  static Path path(String location) {
    return location.startsWith("file:") ? Path.of(URI.create(location)) : Path.of(location);
  }

  private static List<String> first(Collection<String> items) {
    return items.stream().sorted().limit(20).collect(Collectors.toList());
  }

  /** The data files of the current snapshot, as their locations. */
  static List<String> currentFiles(Table table) throws Exception {
    List<String> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(t -> files.add(t.file().location()));
    }
    return files;
  }

  /**
   * What the orphan clean-up must have deleted, last modified before {@code cutoff}: the data files
   * under the topic's directory (sink and compaction names, as it considers) that no snapshot of
   * the table references, the temporary files of compacted files there, and the metadata files
   * (manifests, manifest lists, statistics, metadata files) that nothing retained references.
   */
  static List<String> unreferencedOlderThan(Table table, Path topicDir, long cutoff)
      throws Exception {
    List<String> old = unreferencedDataOlderThan(table, topicDir, cutoff);
    old.addAll(compactionTemporariesOlderThan(topicDir, cutoff));
    old.addAll(unreferencedMetadataOlderThan(table, cutoff));
    Collections.sort(old);
    return old;
  }

  /** The metadata files in the table's metadata directory nothing retained references. */
  static List<String> unreferencedMetadataOlderThan(Table table, long cutoff) throws Exception {
    Set<String> referenced =
        OrphanMetadataFiles.referenced(table, (org.apache.iceberg.HasTableOperations) table);
    Path metadataDir = path(table.location()).resolve("metadata");
    List<String> old = new ArrayList<>();
    try (Stream<Path> files = Files.list(metadataDir)) {
      for (Path f : files.collect(Collectors.toList())) {
        if (OrphanMetadataFiles.isMetadataFileName(f.getFileName().toString())
            && !referenced.contains(f.toString())
            && olderThan(f, cutoff)) {
          old.add("metadata " + f);
        }
      }
    }
    return old;
  }

  /** The temporary files of compacted files under the topic's directory. */
  static List<String> compactionTemporariesOlderThan(Path topicDir, long cutoff) throws Exception {
    List<String> old = new ArrayList<>();
    for (String f : temporaryFiles(topicDir)) {
      Path file = Path.of(f);
      String finalName = StoreKeys.finalNameOfTemporary(file.getFileName().toString());
      if (finalName.startsWith(TableCompactor.FILE_PREFIX) && olderThan(file, cutoff)) {
        old.add("temporary " + f);
      }
    }
    return old;
  }

  private static boolean olderThan(Path file, long cutoff) throws IOException {
    try {
      return Files.getLastModifiedTime(file).toMillis() < cutoff;
    } catch (NoSuchFileException deletedMeanwhile) {
      return false;
    }
  }

  private static List<String> unreferencedDataOlderThan(Table table, Path topicDir, long cutoff)
      throws Exception {
    Set<Path> referenced = new HashSet<>();
    for (String location : OrphanFiles.referenced(table)) {
      referenced.add(path(location));
    }
    List<String> old = new ArrayList<>();
    try (Stream<Path> files = Files.walk(topicDir)) {
      for (Path f : files.filter(Files::isRegularFile).collect(Collectors.toList())) {
        String name = f.getFileName().toString();
        if (!OrphanFiles.isDataFileName(name) || referenced.contains(f)) {
          continue;
        }
        if (olderThan(f, cutoff)) {
          old.add(f.toString());
        }
      }
    }
    return old;
  }

  /**
   * Waits until nothing the orphan clean-up deletes ({@link #unreferencedOlderThan}) is older than
   * the orphan age (plus the clean-up's interval); returns what is still left after two minutes.
   */
  static List<String> awaitOrphansCleaned(
      Catalog catalog, TableIdentifier name, Path topicDir, long slackMs) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (true) {
      List<String> old;
      try {
        old =
            unreferencedOlderThan(
                catalog.loadTable(name), topicDir, System.currentTimeMillis() - slackMs);
      } catch (IOException | RuntimeException raced) {
        // An expiry committed after the metadata was loaded and deleted one of its manifests.
        LOG.info("The table changed while its references were read: {}", raced.toString());
        old = List.of("references unreadable: " + raced);
      }
      if (old.isEmpty() || System.nanoTime() - deadline > 0) {
        return old;
      }
      Thread.sleep(500);
    }
  }

  public static List<String> temporaryFiles(Path lake) throws Exception {
    try (Stream<Path> files = Files.walk(lake)) {
      return files
          .filter(f -> f.getFileName().toString().startsWith(".tmp-pqc-"))
          .map(Path::toString)
          .sorted()
          .collect(Collectors.toList());
    }
  }
}
