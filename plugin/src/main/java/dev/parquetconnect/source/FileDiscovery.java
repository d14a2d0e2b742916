package dev.parquetconnect.source;

import dev.parquetconnect.source.ParquetSourceConfig.Mode;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the files under {@code topics.dir} that this task reads: names matching {@code
 * file.name.pattern}, nothing in or under a directory or file whose name starts with {@code _} or
 * {@code .} (the sink's {@code _markers}, temporary files, the hidden files of other engines),
 * nothing under the move or quarantine prefixes, and only the work {@link TaskAssignment} gives
 * this task. In replay mode a file must carry a sink file name (topic, partition, first offset). A
 * file the sink's markers show to belong to a rolled-back commit attempt is never listed, in either
 * mode ({@link RolledBackCommits}). The order is the store's: keys in UTF-8 byte order, the same on
 * every listing.
 */
final class FileDiscovery implements SourceDiscovery {
  private static final Logger LOG = LoggerFactory.getLogger(FileDiscovery.class);

  /** A file this task replays; {@code name} is null for a file not named like the sink's. */
  record Found(StoreFile file, SinkFileName name) {}

  private final Store store;
  private final String topicsDir;
  private final Pattern namePattern;
  private final Mode mode;
  private final TaskAssignment assignment;
  private final List<String> excludedPrefixes = new ArrayList<>();
  private final Set<String> warnedNames = new HashSet<>();
  private final RolledBackCommits rolledBack;
  private final Set<String> skippedRolledBack = new HashSet<>();
  private final String logPrefix;

  FileDiscovery(Store store, ParquetSourceConfig config, String logPrefix) {
    this.store = store;
    this.topicsDir = config.topicsDir();
    this.namePattern = config.fileNamePattern();
    this.mode = config.mode();
    this.assignment = new TaskAssignment(config.taskIndex(), config.taskCount());
    this.logPrefix = logPrefix;
    this.rolledBack = new RolledBackCommits(store, topicsDir);
    if (!config.afterReplayMovePrefix().isEmpty()) {
      excludedPrefixes.add(config.afterReplayMovePrefix());
    }
    if (!config.quarantinePrefix().isEmpty()) {
      excludedPrefixes.add(config.quarantinePrefix());
    }
  }

  /** The files of this task, in key order. */
  @Override
  public List<Found> list() throws IOException {
    List<Found> found = new ArrayList<>();
    Map<String, RolledBackCommits.Attempt> outcomes = new HashMap<>();
    for (StoreFile f : store.list(topicsDir, true)) {
      if (rolledBack.isOutcome(f)) {
        RolledBackCommits.Attempt a = rolledBack.parse(f.key());
        if (mode == Mode.GENERIC || assignment.ownsPartition(a.topic(), a.partition())) {
          outcomes.put(f.key(), a);
        }
        continue;
      }
      if (f.directory() || !visible(f.key()) || !namePattern.matcher(f.name()).matches()) {
        continue;
      }
      if (mode == Mode.GENERIC) {
        if (assignment.ownsFile(f.key())) {
          found.add(new Found(f, SinkFileName.parse(f.name())));
        }
        continue;
      }
      SinkFileName name = SinkFileName.parse(f.name());
      if (name == null) {
        if (warnedNames.add(f.key())) {
          LOG.warn(
              "{} skipping {}: not a sink file name (<topic>+<partition>+<first offset>"
                  + "[+<last offset>][-<attempt>].parquet); read other files in generic mode",
              logPrefix,
              f.key());
        }
        continue;
      }
      if (assignment.ownsPartition(name.topic(), name.partition())) {
        found.add(new Found(f, name));
      }
    }
    if (outcomes.isEmpty()) {
      return found;
    }
    Set<RolledBackCommits.Attempt> aborted = rolledBack.rolledBack(outcomes);
    if (aborted.isEmpty()) {
      return found;
    }
    List<Found> kept = new ArrayList<>(found.size());
    for (Found f : found) {
      SinkFileName n = f.name();
      if (n != null
          && aborted.contains(
              new RolledBackCommits.Attempt(
                  n.topic(), n.partition(), n.firstOffset(), n.attempt()))) {
        if (skippedRolledBack.add(f.file().key())) {
          LOG.warn(
              "{} skipping {}: its commit attempt was rolled back by the sink (a file a task "
                  + "made visible after losing its partition; the sink deletes it)",
              logPrefix,
              f.file().key());
        }
        continue;
      }
      kept.add(f);
    }
    return kept;
  }

  /** Whether a key is outside hidden entries and the excluded prefixes. */
  private boolean visible(String key) {
    for (String prefix : excludedPrefixes) {
      if (ParquetSourceConfig.isUnder(key, prefix)) {
        return false;
      }
    }
    String relative = topicsDir.isEmpty() ? key : key.substring(topicsDir.length() + 1);
    for (String segment : relative.split("/")) {
      if (segment.startsWith("_") || segment.startsWith(".")) {
        return false;
      }
    }
    return true;
  }
}
