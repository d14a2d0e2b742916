package dev.parquetconnect.source;

import dev.parquetconnect.config.ConfigProblem;
import dev.parquetconnect.config.OfferedValues;
import dev.parquetconnect.config.StoreConfigDef;
import dev.parquetconnect.config.VisibleWhen;
import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import dev.parquetconnect.sink.commit.iceberg.IcebergSettings;
import dev.parquetconnect.source.ParquetSourceConfig.AfterReplay;
import dev.parquetconnect.source.ParquetSourceConfig.Mode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The source's table keys: {@code source.table.format}, {@code replay.table}, the snapshot to read
 * ({@code replay.snapshot.id}, {@code replay.as.of.timestamp}) and the catalog. The catalog keys
 * are the sink's ({@link IcebergConfig}'s {@code iceberg.catalog.*} definitions, taken over with
 * their validators and documentation) and are read into the sink's {@link IcebergSettings}, so both
 * connectors open a catalog the same way.
 */
final class TableReplayConfig {
  static final String SOURCE_TABLE_FORMAT_CONFIG = "source.table.format";
  static final String TABLE_CONFIG = "replay.table";
  static final String SNAPSHOT_ID_CONFIG = "replay.snapshot.id";
  static final String AS_OF_TIMESTAMP_CONFIG = "replay.as.of.timestamp";

  private static final String GROUP = "Iceberg table replay";

  private TableReplayConfig() {}

  /** Adds the keys to the source's definition. */
  static void define(ConfigDef def) {
    int order = 0;
    VisibleWhen iceberg =
        VisibleWhen.equalTo(SOURCE_TABLE_FORMAT_CONFIG, IcebergConfig.TABLE_FORMAT_ICEBERG);
    def.define(
        SOURCE_TABLE_FORMAT_CONFIG,
        Type.STRING,
        IcebergConfig.TABLE_FORMAT_FILES,
        ConfigDef.CaseInsensitiveValidString.in(
            IcebergConfig.TABLE_FORMAT_FILES, IcebergConfig.TABLE_FORMAT_ICEBERG),
        Importance.HIGH,
        "files: replay the files found under topics.dir. iceberg (replay mode only): replay the "
            + "data files of an Iceberg table the sink wrote in table mode (replay.table), as "
            + "one snapshot of it references them; the files are read from store.url.",
        GROUP,
        ++order,
        Width.SHORT,
        "Source table format",
        new OfferedValues(
            List.of(IcebergConfig.TABLE_FORMAT_FILES, IcebergConfig.TABLE_FORMAT_ICEBERG)));
    def.define(
        TABLE_CONFIG,
        Type.STRING,
        "",
        Importance.HIGH,
        "The table replayed, namespace.table (as the sink's iceberg.table named it for the "
            + "topic).",
        GROUP,
        ++order,
        Width.MEDIUM,
        "Table",
        iceberg);
    def.define(
        SNAPSHOT_ID_CONFIG,
        Type.LONG,
        null,
        Importance.MEDIUM,
        "Replay the table as this snapshot holds it (time travel). Unset, with "
            + "replay.as.of.timestamp unset too: the table's current snapshot, pinned when the "
            + "task starts, so that a replay reads a fixed set of files.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "Snapshot id",
        iceberg);
    def.define(
        AS_OF_TIMESTAMP_CONFIG,
        Type.STRING,
        "",
        new ReplaySelectionConfig.TimestampValidator(),
        Importance.MEDIUM,
        "Replay the table as it was at this instant (the newest snapshot committed at or before "
            + "it): ISO-8601 with an offset or epoch milliseconds. Not with replay.snapshot.id.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "As of timestamp",
        iceberg);
    ConfigDef sink = new ConfigDef();
    IcebergConfig.define(sink);
    for (ConfigKey k : sink.configKeys().values()) {
      if (!k.name.startsWith(IcebergConfig.CATALOG_PREFIX)) {
        continue;
      }
      def.define(
          new ConfigKey(
              k.name,
              k.type,
              k.defaultValue,
              k.validator,
              k.importance,
              k.documentation,
              GROUP,
              ++order,
              k.width,
              k.displayName,
              k.dependents,
              iceberg,
              k.internalConfig));
    }
  }

  /** Whether a source configuration replays an Iceberg table. */
  static boolean isIceberg(AbstractConfig c) {
    return IcebergConfig.TABLE_FORMAT_ICEBERG.equalsIgnoreCase(
        c.getString(SOURCE_TABLE_FORMAT_CONFIG).trim());
  }

  /**
   * The catalog settings of a source configuration, read by the sink's own {@link
   * IcebergConfig#settings} from the same {@code iceberg.catalog.*} keys.
   */
  static IcebergSettings catalogSettings(AbstractConfig c) {
    return catalogSettings(c.originals());
  }

  /** The catalog settings of the {@code iceberg.catalog.*} keys among {@code originals}. */
  static IcebergSettings catalogSettings(Map<String, ?> originals) {
    Map<String, Object> catalog = new HashMap<>();
    for (Map.Entry<String, ?> e : originals.entrySet()) {
      // The store keys too: a warehouse on S3 or HDFS is read through StoreFileIO, which takes
      // its endpoint, region and credentials from them.
      if (e.getKey().startsWith(IcebergConfig.CATALOG_PREFIX)
          || StoreConfigDef.KEYS.contains(e.getKey())
          || e.getKey().startsWith(StoreConfigDef.HADOOP_CONFIG_PREFIX)) {
        catalog.put(e.getKey(), e.getValue());
      }
    }
    catalog.put(IcebergConfig.TABLE_FORMAT_CONFIG, IcebergConfig.TABLE_FORMAT_ICEBERG);
    ConfigDef sink = new ConfigDef();
    IcebergConfig.define(sink);
    // The store keys' recommenders refer to store.url.
    sink.define(ParquetSourceConfig.STORE_URL_CONFIG, Type.STRING, null, Importance.LOW, "");
    StoreConfigDef.define(sink);
    return IcebergConfig.settings(new AbstractConfig(sink, catalog, false));
  }

  /** The snapshot id configured, or null. */
  static Long snapshotId(AbstractConfig c) {
    return c.getLong(SNAPSHOT_ID_CONFIG);
  }

  /** {@code replay.as.of.timestamp} in epoch milliseconds, or null. */
  static Long asOfTimestamp(AbstractConfig c) {
    return ReplaySelectionConfig.timestamp(c.getString(AS_OF_TIMESTAMP_CONFIG));
  }

  /** The rules between the table keys and the others, for {@link SourceConfigRules}. */
  static List<ConfigProblem> problems(ParquetSourceConfig c) {
    List<ConfigProblem> problems = new ArrayList<>();
    if (!isIceberg(c)) {
      return problems;
    }
    if (c.mode() != Mode.REPLAY) {
      problems.add(
          ConfigProblem.about(
              SOURCE_TABLE_FORMAT_CONFIG,
              "an Iceberg table is replayed in replay mode only (its files are the sink's)",
              ParquetSourceConfig.MODE_CONFIG));
    }
    if (c.getString(TABLE_CONFIG).isBlank()) {
      problems.add(
          ConfigProblem.about(
              TABLE_CONFIG,
              TABLE_CONFIG + " (namespace.table) is required with source.table.format iceberg",
              SOURCE_TABLE_FORMAT_CONFIG));
    } else if (!c.getString(TABLE_CONFIG).trim().contains(".")) {
      problems.add(
          ConfigProblem.on(
              TABLE_CONFIG,
              TABLE_CONFIG + " '" + c.getString(TABLE_CONFIG).trim() + "' has no namespace"));
    }
    if (snapshotId(c) != null && !c.getString(AS_OF_TIMESTAMP_CONFIG).isBlank()) {
      problems.add(
          ConfigProblem.about(
              AS_OF_TIMESTAMP_CONFIG,
              "set either " + SNAPSHOT_ID_CONFIG + " or " + AS_OF_TIMESTAMP_CONFIG + ", not both",
              SNAPSHOT_ID_CONFIG));
    }
    if (c.afterReplay() != AfterReplay.LEAVE) {
      problems.add(
          ConfigProblem.about(
              ParquetSourceConfig.AFTER_REPLAY_CONFIG,
              "after.replay "
                  + ParquetSourceConfig.spelling(c.afterReplay())
                  + " would remove data files an Iceberg table references: use leave",
              SOURCE_TABLE_FORMAT_CONFIG));
    }
    Map<String, Object> catalog = new HashMap<>(c.values());
    catalog.put(IcebergConfig.TABLE_FORMAT_CONFIG, IcebergConfig.TABLE_FORMAT_ICEBERG);
    for (ConfigProblem p : IcebergConfig.problems(catalog::get)) {
      problems.add(p);
    }
    return problems;
  }
}
