package dev.parquetconnect.iceberg.maintenance;

import dev.parquetconnect.config.ConfigProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The table maintenance keys of {@code table.format=iceberg} ({@code iceberg.compaction.*}, {@code
 * iceberg.snapshots.*}, {@code iceberg.orphans.*}; docs/iceberg.md, "Maintenance"): their
 * definition, the rules between them and the typed {@link MaintenanceSettings}.
 */
public final class MaintenanceConfig {
  public static final String COMPACTION_ENABLED_CONFIG = "iceberg.compaction.enabled";
  public static final String COMPACTION_INTERVAL_MS_CONFIG = "iceberg.compaction.interval.ms";
  public static final String COMPACTION_TARGET_FILE_BYTES_CONFIG =
      "iceberg.compaction.target-file-bytes";
  public static final String COMPACTION_MIN_INPUT_FILES_CONFIG =
      "iceberg.compaction.min-input-files";
  public static final String COMPACTION_MAX_BYTES_PER_RUN_CONFIG =
      "iceberg.compaction.max-bytes-per-run";
  public static final String COMPACTION_MIN_AGE_MS_CONFIG = "iceberg.compaction.min-age.ms";
  public static final String COMPACTION_MAX_RUN_TIME_MS_CONFIG =
      "iceberg.compaction.max-run-time.ms";
  public static final String SNAPSHOTS_EXPIRE_ENABLED_CONFIG = "iceberg.snapshots.expire.enabled";
  public static final String SNAPSHOTS_MAX_AGE_MS_CONFIG = "iceberg.snapshots.max-age.ms";
  public static final String SNAPSHOTS_MIN_TO_KEEP_CONFIG = "iceberg.snapshots.min-to-keep";
  public static final String SNAPSHOTS_INTERVAL_MS_CONFIG = "iceberg.snapshots.interval.ms";
  public static final String ORPHANS_ENABLED_CONFIG = "iceberg.orphans.enabled";
  public static final String ORPHANS_MIN_AGE_MS_CONFIG = "iceberg.orphans.min-age.ms";

  /** The sink keys the rules compare with (defined by the sink). */
  static final String COMMIT_TIMEOUT_MS_CONFIG = "commit.timeout.ms";

  static final String BUFFER_MAX_BYTES_CONFIG = "buffer.max.bytes";

  private static final String GROUP = "Iceberg table maintenance";

  private MaintenanceConfig() {}

  /** Adds the maintenance keys to a sink's definition, shown when {@code visible} says so. */
  public static void define(ConfigDef def, ConfigDef.Recommender visible) {
    int order = 0;
    def.define(
        COMPACTION_ENABLED_CONFIG,
        Type.BOOLEAN,
        false,
        Importance.MEDIUM,
        "Compact the small data files of each table in the background: files of a partition "
            + "merged by the connector's own Parquet codec into files of "
            + COMPACTION_TARGET_FILE_BYTES_CONFIG
            + ", swapped in by one Iceberg rewrite commit per partition. Run by the task that "
            + "owns partition 0 of the table's topic.",
        GROUP,
        ++order,
        Width.SHORT,
        "Compaction",
        visible);
    def.define(
        COMPACTION_INTERVAL_MS_CONFIG,
        Type.LONG,
        600_000L,
        Range.atLeast(100),
        Importance.LOW,
        "How often a compaction run starts (after the previous one ended).",
        GROUP,
        ++order,
        Width.SHORT,
        "Compaction interval",
        visible);
    def.define(
        COMPACTION_TARGET_FILE_BYTES_CONFIG,
        Type.LONG,
        128L << 20,
        Range.atLeast(1024),
        Importance.MEDIUM,
        "The size of compacted files. Data files at least this large are never compacted; a "
            + "compacted file is closed once it reaches it.",
        GROUP,
        ++order,
        Width.SHORT,
        "Target file size",
        visible);
    def.define(
        COMPACTION_MIN_INPUT_FILES_CONFIG,
        Type.INT,
        5,
        Range.atLeast(2),
        Importance.LOW,
        "A partition is compacted only once it has at least this many files smaller than the "
            + "target.",
        GROUP,
        ++order,
        Width.SHORT,
        "Minimum input files",
        visible);
    def.define(
        COMPACTION_MAX_BYTES_PER_RUN_CONFIG,
        Type.LONG,
        1L << 30,
        Range.atLeast(1),
        Importance.LOW,
        "The input bytes one compaction run reads at most; the rest waits for the next run.",
        GROUP,
        ++order,
        Width.SHORT,
        "Maximum bytes per run",
        visible);
    def.define(
        COMPACTION_MIN_AGE_MS_CONFIG,
        Type.LONG,
        600_000L,
        Range.atLeast(0),
        Importance.LOW,
        "A partition into which a file was committed less than this ago is left alone (it is "
            + "still being written).",
        GROUP,
        ++order,
        Width.SHORT,
        "Minimum partition age",
        visible);
    def.define(
        COMPACTION_MAX_RUN_TIME_MS_CONFIG,
        Type.LONG,
        120_000L,
        Range.atLeast(100),
        Importance.LOW,
        "A compaction run starts no new partition after this long: the share of the worker's "
            + "time maintenance takes (its thread also runs at the lowest priority).",
        GROUP,
        ++order,
        Width.SHORT,
        "Maximum run time",
        visible);
    def.define(
        SNAPSHOTS_EXPIRE_ENABLED_CONFIG,
        Type.BOOLEAN,
        false,
        Importance.MEDIUM,
        "Expire old snapshots of each table (and delete the files only they referenced). The "
            + "newest snapshot that holds the sink's offsets and every snapshot after it are "
            + "always kept.",
        GROUP,
        ++order,
        Width.SHORT,
        "Snapshot expiry",
        visible);
    def.define(
        SNAPSHOTS_MAX_AGE_MS_CONFIG,
        Type.LONG,
        5L * 24 * 3600 * 1000,
        Range.atLeast(0),
        Importance.LOW,
        "Snapshots older than this are expired.",
        GROUP,
        ++order,
        Width.SHORT,
        "Snapshot maximum age",
        visible);
    def.define(
        SNAPSHOTS_MIN_TO_KEEP_CONFIG,
        Type.INT,
        1,
        Range.atLeast(1),
        Importance.LOW,
        "The newest snapshots of the main branch kept whatever their age.",
        GROUP,
        ++order,
        Width.SHORT,
        "Snapshots to keep",
        visible);
    def.define(
        SNAPSHOTS_INTERVAL_MS_CONFIG,
        Type.LONG,
        3_600_000L,
        Range.atLeast(100),
        Importance.LOW,
        "How often snapshot expiry and orphan clean-up run.",
        GROUP,
        ++order,
        Width.SHORT,
        "Clean-up interval",
        visible);
    def.define(
        ORPHANS_ENABLED_CONFIG,
        Type.BOOLEAN,
        false,
        Importance.MEDIUM,
        "Delete data files in a table's directories of the store that no snapshot of the table "
            + "references (left by crashed writers or compactions), temporary files of killed "
            + "compactions, and metadata files nothing retained references (manifests and "
            + "manifest lists of expired snapshots, old metadata files) once older than "
            + ORPHANS_MIN_AGE_MS_CONFIG
            + ".",
        GROUP,
        ++order,
        Width.SHORT,
        "Orphan clean-up",
        visible);
    def.define(
        ORPHANS_MIN_AGE_MS_CONFIG,
        Type.LONG,
        3L * 24 * 3600 * 1000,
        Range.atLeast(0),
        Importance.LOW,
        "An unreferenced data file younger than this is left alone: it may belong to a commit "
            + "in flight. At least commit.timeout.ms and twice "
            + COMPACTION_MAX_RUN_TIME_MS_CONFIG
            + ".",
        GROUP,
        ++order,
        Width.SHORT,
        "Orphan minimum age",
        visible);
  }

  /**
   * The problems between maintenance keys and the sink's, on parsed values ({@code null} for a key
   * whose own value is invalid).
   */
  public static List<ConfigProblem> problems(Function<String, Object> parsed) {
    List<ConfigProblem> errors = new ArrayList<>();
    if (!Boolean.TRUE.equals(parsed.apply(ORPHANS_ENABLED_CONFIG))) {
      return errors;
    }
    if (parsed.apply(ORPHANS_MIN_AGE_MS_CONFIG) instanceof Long age) {
      if (parsed.apply(COMMIT_TIMEOUT_MS_CONFIG) instanceof Long timeout && age < timeout) {
        errors.add(
            ConfigProblem.about(
                ORPHANS_MIN_AGE_MS_CONFIG,
                "is "
                    + age
                    + ", less than commit.timeout.ms ("
                    + timeout
                    + "): the files of a commit in flight could be deleted",
                COMMIT_TIMEOUT_MS_CONFIG));
      }
      if (parsed.apply(COMPACTION_MAX_RUN_TIME_MS_CONFIG) instanceof Long run && age < 2 * run) {
        errors.add(
            ConfigProblem.about(
                ORPHANS_MIN_AGE_MS_CONFIG,
                "is "
                    + age
                    + ", less than twice "
                    + COMPACTION_MAX_RUN_TIME_MS_CONFIG
                    + " ("
                    + run
                    + "): the files of a compaction in flight could be deleted",
                COMPACTION_MAX_RUN_TIME_MS_CONFIG));
      }
    }
    return errors;
  }

  /** The typed maintenance settings of a parsed sink configuration. */
  public static MaintenanceSettings settings(AbstractConfig config) {
    long memory =
        config.values().get(BUFFER_MAX_BYTES_CONFIG) instanceof Long budget ? budget : 256L << 20;
    CompactionPolicy policy =
        new CompactionPolicy(
            config.getLong(COMPACTION_TARGET_FILE_BYTES_CONFIG),
            config.getInt(COMPACTION_MIN_INPUT_FILES_CONFIG),
            config.getLong(COMPACTION_MAX_BYTES_PER_RUN_CONFIG),
            config.getLong(COMPACTION_MIN_AGE_MS_CONFIG),
            config.getLong(COMPACTION_MAX_RUN_TIME_MS_CONFIG),
            memory);
    return new MaintenanceSettings(
        policy,
        config.getBoolean(COMPACTION_ENABLED_CONFIG),
        config.getLong(COMPACTION_INTERVAL_MS_CONFIG),
        config.getBoolean(SNAPSHOTS_EXPIRE_ENABLED_CONFIG),
        config.getLong(SNAPSHOTS_MAX_AGE_MS_CONFIG),
        config.getInt(SNAPSHOTS_MIN_TO_KEEP_CONFIG),
        config.getBoolean(ORPHANS_ENABLED_CONFIG),
        config.getLong(ORPHANS_MIN_AGE_MS_CONFIG),
        config.getLong(SNAPSHOTS_INTERVAL_MS_CONFIG));
  }
}
