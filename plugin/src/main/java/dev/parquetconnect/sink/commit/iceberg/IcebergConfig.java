package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.config.ConfigProblem;
import dev.parquetconnect.config.OfferedValues;
import dev.parquetconnect.config.VisibleWhen;
import dev.parquetconnect.iceberg.PartitionSpecs;
import dev.parquetconnect.iceberg.maintenance.MaintenanceConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.types.Password;

/**
 * The sink's table keys: {@code table.format} and the {@code iceberg.*} keys (docs/iceberg.md),
 * their definition, the rules between them, and the typed {@link IcebergSettings} a task reads.
 * Keys under {@code iceberg.catalog.} that are not defined here go to the catalog as they are (the
 * prefix removed), and those under {@code iceberg.table.properties.} become table properties of a
 * table the sink creates.
 */
public final class IcebergConfig {
  public static final String TABLE_FORMAT_CONFIG = "table.format";
  public static final String TABLE_FORMAT_FILES = "files";
  public static final String TABLE_FORMAT_ICEBERG = "iceberg";

  public static final String CATALOG_PREFIX = "iceberg.catalog.";
  public static final String CATALOG_TYPE_CONFIG = "iceberg.catalog.type";
  public static final String CATALOG_NAME_CONFIG = "iceberg.catalog.name";
  public static final String CATALOG_URI_CONFIG = "iceberg.catalog.uri";
  public static final String CATALOG_WAREHOUSE_CONFIG = "iceberg.catalog.warehouse";
  public static final String CATALOG_CREDENTIAL_CONFIG = "iceberg.catalog.credential";
  public static final String CATALOG_TOKEN_CONFIG = "iceberg.catalog.token";
  public static final String CATALOG_JDBC_PASSWORD_CONFIG = "iceberg.catalog.jdbc.password";

  public static final String TABLE_CONFIG = "iceberg.table";
  public static final String TABLE_DEFAULT = "kafka.${topic}";
  public static final String TABLE_AUTO_CREATE_CONFIG = "iceberg.table.auto-create";
  public static final String TABLE_PROPERTIES_PREFIX = "iceberg.table.properties.";
  public static final String SCHEMA_EVOLVE_CONFIG = "iceberg.schema.evolve";
  public static final String PARTITION_SPEC_CONFIG = "iceberg.partition.spec";
  public static final String COMMIT_INTERVAL_MS_CONFIG = "iceberg.commit.interval.ms";

  /** The placeholder of {@link #TABLE_CONFIG} that the record's topic replaces. */
  public static final String TOPIC_PLACEHOLDER = "${topic}";

  /** The catalogs the sink opens through Iceberg's {@code CatalogUtil}. */
  public static final List<String> CATALOG_TYPES = List.of("rest", "jdbc", "hadoop");

  private static final String GROUP = "Iceberg table";

  private IcebergConfig() {}

  /** Adds the table keys to a sink's definition. */
  public static void define(ConfigDef def) {
    int order = 0;
    VisibleWhen iceberg = VisibleWhen.equalTo(TABLE_FORMAT_CONFIG, TABLE_FORMAT_ICEBERG);
    def.define(
        TABLE_FORMAT_CONFIG,
        Type.STRING,
        TABLE_FORMAT_FILES,
        ConfigDef.CaseInsensitiveValidString.in(TABLE_FORMAT_FILES, TABLE_FORMAT_ICEBERG),
        Importance.HIGH,
        "files: Parquet files in Hive-style directories, committed with commit markers "
            + "(docs/exactly-once.md). iceberg: the same files, committed into Apache Iceberg "
            + "tables through a catalog, with each Kafka partition's committed offsets in the "
            + "table's snapshots (docs/iceberg.md).",
        GROUP,
        ++order,
        Width.SHORT,
        "Table format",
        new OfferedValues(List.of(TABLE_FORMAT_FILES, TABLE_FORMAT_ICEBERG)));
    def.define(
        CATALOG_TYPE_CONFIG,
        Type.STRING,
        "rest",
        ConfigDef.CaseInsensitiveValidString.in(CATALOG_TYPES.toArray(String[]::new)),
        Importance.HIGH,
        "The Iceberg catalog: rest (Iceberg's REST catalog protocol: Polaris, Unity Catalog, "
            + "Nessie, AWS Glue's and S3 Tables' REST endpoints), jdbc (a database: the driver "
            + "must be on the plugin path) or hadoop (metadata files on a file system, local or "
            + "HDFS). Any other iceberg.catalog.<key> is passed to the catalog as <key>.",
        GROUP,
        ++order,
        Width.SHORT,
        "Catalog type",
        iceberg);
    def.define(
        CATALOG_NAME_CONFIG,
        Type.STRING,
        "iceberg",
        Importance.LOW,
        "The catalog's name. A jdbc catalog keeps it with every table (other engines see the "
            + "tables under the same name only); the others use it in logs and metrics.",
        GROUP,
        ++order,
        Width.SHORT,
        "Catalog name",
        iceberg);
    def.define(
        CATALOG_URI_CONFIG,
        Type.STRING,
        "",
        Importance.HIGH,
        "The catalog's URI: http(s)://host:port/path of a REST catalog, jdbc:... of a JDBC "
            + "catalog; unused by the hadoop catalog.",
        GROUP,
        ++order,
        Width.LONG,
        "Catalog URI",
        iceberg);
    def.define(
        CATALOG_WAREHOUSE_CONFIG,
        Type.STRING,
        "",
        Importance.MEDIUM,
        "The warehouse: where a jdbc or hadoop catalog keeps tables (required by them), or the "
            + "warehouse name or location a REST catalog expects (optional).",
        GROUP,
        ++order,
        Width.LONG,
        "Warehouse",
        iceberg);
    def.define(
        CATALOG_CREDENTIAL_CONFIG,
        Type.PASSWORD,
        null,
        Importance.MEDIUM,
        "A REST catalog's OAuth2 client credential, client_id:client_secret (passed as the "
            + "catalog's 'credential'). Never logged.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "REST credential",
        iceberg);
    def.define(
        CATALOG_TOKEN_CONFIG,
        Type.PASSWORD,
        null,
        Importance.MEDIUM,
        "A REST catalog's bearer token (passed as the catalog's 'token'). Never logged.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "REST token",
        iceberg);
    def.define(
        CATALOG_JDBC_PASSWORD_CONFIG,
        Type.PASSWORD,
        null,
        Importance.MEDIUM,
        "A JDBC catalog's database password (the user is iceberg.catalog.jdbc.user). Never "
            + "logged.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "JDBC password",
        iceberg);
    def.define(
        TABLE_CONFIG,
        Type.STRING,
        TABLE_DEFAULT,
        Importance.HIGH,
        "The table of a Kafka partition's records: namespace.table, where ${topic} is "
            + "replaced by the topic they were consumed from (dots as underscores; a "
            + "transformation that renames topics does not change the table). The namespace may "
            + "have several levels (a.b.table).",
        GROUP,
        ++order,
        Width.MEDIUM,
        "Table",
        iceberg);
    def.define(
        TABLE_AUTO_CREATE_CONFIG,
        Type.BOOLEAN,
        true,
        Importance.MEDIUM,
        "Create a missing table (and its namespace) at its first commit, with the schema of the "
            + "first files, iceberg.partition.spec and the iceberg.table.properties.* keys. "
            + "false: a missing table fails the task.",
        GROUP,
        ++order,
        Width.SHORT,
        "Create tables",
        iceberg);
    def.define(
        SCHEMA_EVOLVE_CONFIG,
        Type.BOOLEAN,
        true,
        Importance.MEDIUM,
        "Widen the table's schema when records need it (new optional columns, int to long, "
            + "float to double, wider decimals, required to optional). false: a commit whose "
            + "files the table's schema cannot hold fails.",
        GROUP,
        ++order,
        Width.SHORT,
        "Evolve schemas",
        iceberg);
    def.define(
        PARTITION_SPEC_CONFIG,
        Type.STRING,
        "",
        Importance.MEDIUM,
        "The partition spec of a table the sink creates, e.g. 'day(ts), identity(country), "
            + "bucket(16, id)' (identity, year, month, day, hour, bucket, truncate; nested "
            + "fields by dotted path). Empty: derived from partitioner.class (field: identity of "
            + "each field; time: the path.format's finest unit of the timestamp column), else "
            + "unpartitioned. Records are routed to their table's partitions whatever the spec.",
        GROUP,
        ++order,
        Width.LONG,
        "Partition spec",
        iceberg);
    def.define(
        COMMIT_INTERVAL_MS_CONFIG,
        Type.LONG,
        60_000L,
        Range.atLeast(100),
        Importance.MEDIUM,
        "How often the open files are committed into their tables, when "
            + "rotate.schedule.interval.ms is not set (flush.size, file.max.bytes and "
            + "buffer.max.bytes still commit earlier). Each commit is one snapshot.",
        GROUP,
        ++order,
        Width.SHORT,
        "Commit interval",
        iceberg);
    MaintenanceConfig.define(def, iceberg);
  }

  /**
   * The problems between table keys, on parsed values ({@code null} for a key whose own value is
   * invalid).
   */
  public static List<ConfigProblem> problems(Function<String, Object> parsed) {
    List<ConfigProblem> errors = new ArrayList<>();
    if (!TABLE_FORMAT_ICEBERG.equalsIgnoreCase(text(parsed, TABLE_FORMAT_CONFIG))) {
      return errors;
    }
    String type = text(parsed, CATALOG_TYPE_CONFIG);
    String uri = text(parsed, CATALOG_URI_CONFIG);
    String warehouse = text(parsed, CATALOG_WAREHOUSE_CONFIG);
    if (type != null) {
      switch (type.toLowerCase(Locale.ROOT)) {
        case "rest":
          if (uri == null || uri.isEmpty()) {
            errors.add(ConfigProblem.on(CATALOG_URI_CONFIG, "a rest catalog needs its URI"));
          } else if (!uri.startsWith("http://") && !uri.startsWith("https://")) {
            errors.add(
                ConfigProblem.on(
                    CATALOG_URI_CONFIG, "a rest catalog's URI starts with http:// or https://"));
          }
          break;
        case "jdbc":
          if (uri == null || !uri.startsWith("jdbc:")) {
            errors.add(ConfigProblem.on(CATALOG_URI_CONFIG, "a jdbc catalog needs a jdbc: URI"));
          }
          if (warehouse == null || warehouse.isEmpty()) {
            errors.add(
                ConfigProblem.on(CATALOG_WAREHOUSE_CONFIG, "a jdbc catalog needs a warehouse"));
          }
          break;
        default:
          if (warehouse == null || warehouse.isEmpty()) {
            errors.add(
                ConfigProblem.on(CATALOG_WAREHOUSE_CONFIG, "a hadoop catalog needs a warehouse"));
          }
      }
    }
    String spec = text(parsed, PARTITION_SPEC_CONFIG);
    if (spec != null && !spec.isEmpty()) {
      PartitionSpecs.validateSyntax(spec)
          .ifPresent(problem -> errors.add(ConfigProblem.on(PARTITION_SPEC_CONFIG, problem)));
    }
    String table = text(parsed, TABLE_CONFIG);
    if (table != null) {
      String problem = TableNames.problem(table);
      if (problem != null) {
        errors.add(ConfigProblem.on(TABLE_CONFIG, problem));
      }
    }
    errors.addAll(MaintenanceConfig.problems(parsed));
    return errors;
  }

  /** Whether a configuration commits into Iceberg tables. */
  public static boolean isIceberg(AbstractConfig config) {
    return TABLE_FORMAT_ICEBERG.equalsIgnoreCase(config.getString(TABLE_FORMAT_CONFIG).trim());
  }

  /** The typed table settings of a parsed sink configuration. */
  public static IcebergSettings settings(AbstractConfig config) {
    Map<String, String> catalog = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : config.originalsWithPrefix(CATALOG_PREFIX).entrySet()) {
      if (e.getValue() != null) {
        catalog.put(e.getKey(), e.getValue().toString());
      }
    }
    // The defined keys, as parsed (secrets out of their Password wrappers only here).
    catalog.put("type", config.getString(CATALOG_TYPE_CONFIG).trim().toLowerCase(Locale.ROOT));
    putIfSet(catalog, "uri", config.getString(CATALOG_URI_CONFIG));
    putIfSet(catalog, "warehouse", config.getString(CATALOG_WAREHOUSE_CONFIG));
    putSecret(catalog, "credential", config.getPassword(CATALOG_CREDENTIAL_CONFIG));
    putSecret(catalog, "token", config.getPassword(CATALOG_TOKEN_CONFIG));
    putSecret(catalog, "jdbc.password", config.getPassword(CATALOG_JDBC_PASSWORD_CONFIG));
    Map<String, String> tableProperties = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e :
        config.originalsWithPrefix(TABLE_PROPERTIES_PREFIX).entrySet()) {
      if (e.getValue() != null) {
        tableProperties.put(e.getKey(), e.getValue().toString());
      }
    }
    catalog.remove("name");
    return new IcebergSettings(
        config.getString(CATALOG_NAME_CONFIG).trim(),
        catalog,
        config.getString(TABLE_CONFIG).trim(),
        config.getBoolean(TABLE_AUTO_CREATE_CONFIG),
        tableProperties,
        config.getBoolean(SCHEMA_EVOLVE_CONFIG),
        config.getString(PARTITION_SPEC_CONFIG).trim(),
        config.getLong(COMMIT_INTERVAL_MS_CONFIG));
  }

  private static void putIfSet(Map<String, String> map, String key, String value) {
    if (value != null && !value.isBlank()) {
      map.put(key, value.trim());
    } else {
      map.remove(key);
    }
  }

  private static void putSecret(Map<String, String> map, String key, Password value) {
    if (value != null && value.value() != null && !value.value().isEmpty()) {
      map.put(key, value.value());
    } else {
      map.remove(key);
    }
  }

  private static String text(Function<String, Object> parsed, String key) {
    Object value = parsed.apply(key);
    return value == null ? null : value.toString().trim();
  }
}
