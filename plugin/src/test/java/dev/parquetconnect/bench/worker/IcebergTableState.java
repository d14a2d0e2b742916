package dev.parquetconnect.bench.worker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The current snapshot of an Iceberg table of a Hadoop catalog on local disk, read from the table's
 * own metadata files as the catalog writes them ({@code metadata/version-hint.text} names the
 * current {@code v<N>.metadata.json}), so the bench needs no Iceberg library of its own.
 *
 * @param snapshotId the current snapshot
 * @param timestampMillis when that snapshot was committed
 * @param totalRecords the snapshot summary's {@code total-records}
 * @param totalDataFiles the snapshot summary's {@code total-data-files}
 * @param dataFiles the Parquet files under the table's data directory ({@code data/}, or where the
 *     writer puts them); a run without failed commits leaves exactly the snapshot's files there,
 *     which {@link #dataFilesMatch()} checks by their number
 */
record IcebergTableState(
    long snapshotId,
    long timestampMillis,
    long totalRecords,
    long totalDataFiles,
    List<Path> dataFiles) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The table's current snapshot; empty before the first commit. */
  static Optional<IcebergTableState> read(Path tableDir) throws IOException {
    return read(tableDir, tableDir.resolve("data"));
  }

  /** The table's current snapshot, its data files counted under {@code dataDir}. */
  static Optional<IcebergTableState> read(Path tableDir, Path dataDir) throws IOException {
    Path metadata = tableDir.resolve("metadata");
    String version;
    try {
      version =
          Files.readString(metadata.resolve("version-hint.text"), StandardCharsets.UTF_8).trim();
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    JsonNode table;
    try {
      table = JSON.readTree(metadata.resolve("v" + version + ".metadata.json").toFile());
    } catch (NoSuchFileException e) {
      // The hint is written after its metadata file; a reader between the two sees the old hint.
      return Optional.empty();
    }
    long current = table.path("current-snapshot-id").asLong(-1);
    if (current < 0) {
      return Optional.empty();
    }
    for (JsonNode snapshot : table.path("snapshots")) {
      if (snapshot.path("snapshot-id").asLong() == current) {
        JsonNode summary = snapshot.path("summary");
        return Optional.of(
            new IcebergTableState(
                current,
                snapshot.path("timestamp-ms").asLong(),
                summary.path("total-records").asLong(),
                summary.path("total-data-files").asLong(),
                parquetFiles(dataDir)));
      }
    }
    throw new IOException(
        "The metadata of " + tableDir + " names current snapshot " + current + " but lists none");
  }

  /**
   * The commit that put the last of {@code produced} records into the table at {@code tableDir}:
   * its current snapshot once that counts them all. Any leg that ends in an Iceberg table of a
   * Hadoop catalog on local disk (Iceberg's sink, our sink's table mode) recognises its last commit
   * with it.
   */
  static Optional<Leg.Commit> lastCommit(Path tableDir, long produced) throws IOException {
    return lastCommit(tableDir, tableDir.resolve("data"), produced);
  }

  /**
   * As {@link #lastCommit(Path, long)}, for a table whose data files live under {@code dataDir}
   * rather than the table's own {@code data/} (our sink's table mode writes them through its store,
   * {@code store.url}).
   */
  static Optional<Leg.Commit> lastCommit(Path tableDir, Path dataDir, long produced)
      throws IOException {
    Optional<IcebergTableState> state = read(tableDir, dataDir);
    if (state.isEmpty() || state.get().totalRecords() < produced) {
      return Optional.empty();
    }
    IcebergTableState table = state.get();
    return Optional.of(
        new Leg.Commit(
            table.timestampMillis(),
            table.dataFiles(),
            "snapshot "
                + table.snapshotId()
                + " total-records="
                + table.totalRecords()
                + " total-data-files="
                + table.totalDataFiles()
                + (table.dataFilesMatch()
                    ? ""
                    : " BUT " + table.dataFiles().size() + " files in data/")));
  }

  boolean dataFilesMatch() {
    return dataFiles.size() == totalDataFiles;
  }

  private static List<Path> parquetFiles(Path dataDir) throws IOException {
    if (!Files.isDirectory(dataDir)) {
      return List.of();
    }
    try (Stream<Path> paths = Files.walk(dataDir)) {
      return paths
          .filter(Files::isRegularFile)
          .filter(path -> path.getFileName().toString().endsWith(".parquet"))
          .sorted()
          .toList();
    }
  }
}
