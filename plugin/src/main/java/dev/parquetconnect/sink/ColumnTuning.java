package dev.parquetconnect.sink;

import dev.parquetconnect.config.ConfigProblem;
import dev.parquetconnect.format.encoding.ValuesCodecs;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.write.WriterOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-column keys of the writer ({@code parquet.column.*}): for a column path (dotted, as
 * {@code pq schema} shows it: {@code customer.id}, {@code tags.list.element}), its value encoding,
 * dictionary on or off, statistics on or off, and a bloom filter sized for that column. Each key is
 * a list of {@code PATH=VALUE} entries. The column's type is known only when a file is opened: an
 * encoding that does not fit it (DELTA_BINARY_PACKED on a string) fails the task there, naming the
 * key, the column and the topic; a path the file lacks is ignored (the schema may grow into it).
 *
 * <p>GROUP_VAR_INT, an encoding of early format drafts that no released reader decodes, is refused
 * unless {@value #GROUP_VAR_INT_CONFIG} opts in, and then logged as a warning when the task starts.
 */
final class ColumnTuning {
  private static final Logger LOG = LoggerFactory.getLogger(ColumnTuning.class);

  static final String ENCODING_CONFIG = "parquet.column.encoding";
  static final String DICTIONARY_CONFIG = "parquet.column.dictionary";
  static final String STATISTICS_CONFIG = "parquet.column.statistics";
  static final String BLOOM_FILTER_CONFIG = "parquet.column.bloom.filter";
  static final String GROUP_VAR_INT_CONFIG = "parquet.column.encoding.group.var.int.enabled";

  /** The encodings a column may name, in the key's own spelling. */
  static final List<String> ENCODINGS =
      List.of(
          "plain",
          "delta_binary_packed",
          "delta_length_byte_array",
          "delta_byte_array",
          "byte_stream_split",
          "rle",
          "group_var_int");

  /** What the warning says readers do with GROUP_VAR_INT (ColumnTuningTest shows it). */
  static final String GROUP_VAR_INT_READERS =
      "no released Parquet reader decodes GROUP_VAR_INT (encoding id 1, dropped from the format"
          + " before its first release), and the footer names it, so other readers cannot even"
          + " open the file: parquet-java fails with \"Required field 'encoding' was not present\""
          + " (and with it Spark, Hive and every engine on parquet-java), DuckDB with"
          + " \"TProtocolException: Invalid data\"; only pq and this connector's source read it";

  /** A bloom filter entry: either size may be null for the file-wide key's value. */
  record BloomFilter(Long ndv, Double fpp) {}

  private final Map<String, Encoding> encodings;
  private final Map<String, Boolean> dictionaries;
  private final Map<String, Boolean> statistics;
  private final Map<String, BloomFilter> bloomFilters;

  private ColumnTuning(
      Map<String, Encoding> encodings,
      Map<String, Boolean> dictionaries,
      Map<String, Boolean> statistics,
      Map<String, BloomFilter> bloomFilters) {
    this.encodings = encodings;
    this.dictionaries = dictionaries;
    this.statistics = statistics;
    this.bloomFilters = bloomFilters;
  }

  /** Defines the keys in {@code group}, after the {@code order}th key of it. */
  static void define(ConfigDef def, String group, int order) {
    String paths =
        " Paths are the dotted Parquet column paths pq schema shows (customer.id,"
            + " tags.list.element); a path a file lacks is ignored.";
    def.define(
        ENCODING_CONFIG,
        Type.LIST,
        "",
        new EntryValidator(ColumnTuning::encoding),
        Importance.LOW,
        "Per column, the encoding of pages that are not dictionary-encoded, replacing the "
            + "encoding policy's choice: PATH=ENCODING entries, ENCODING one of "
            + String.join(", ", ENCODINGS)
            + " (e.g. price=byte_stream_split,id=delta_binary_packed). byte_stream_split fits "
            + "FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY columns (Spark before 4.1 and "
            + "Trino cannot read it, DuckDB 1.4 only on FLOAT and DOUBLE); rle only booleans; group_var_int only with "
            + GROUP_VAR_INT_CONFIG
            + ". A column whose type the encoding does not fit fails the task when its file opens."
            + paths,
        group,
        ++order,
        Width.LONG,
        "Column encodings");
    def.define(
        DICTIONARY_CONFIG,
        Type.LIST,
        "",
        new EntryValidator(ColumnTuning::onOff),
        Importance.LOW,
        "Per column, whether dictionary encoding is tried first: PATH=on|off entries (e.g. "
            + "uuid=off,country=on)."
            + paths,
        group,
        ++order,
        Width.LONG,
        "Column dictionaries");
    def.define(
        STATISTICS_CONFIG,
        Type.LIST,
        "",
        new EntryValidator(ColumnTuning::onOff),
        Importance.LOW,
        "Per column, whether its chunks carry statistics (min, max, null count) and a column "
            + "index: PATH=on|off entries. Off, engines cannot skip row groups or pages by its "
            + "values; for columns nobody filters on, or whose values must not show in the footer."
            + paths,
        group,
        ++order,
        Width.LONG,
        "Column statistics");
    def.define(
        BLOOM_FILTER_CONFIG,
        Type.LIST,
        "",
        new EntryValidator(ColumnTuning::bloomFilter),
        Importance.LOW,
        "Columns that get a split-block bloom filter per row group, each sized for itself: PATH, "
            + "PATH=NDV or PATH=NDV:FPP entries (e.g. customer.id=50000:0.001, sku=:0.05); a size "
            + "left out is parquet.bloom.filter.ndv's or parquet.bloom.filter.fpp's."
            + paths,
        group,
        ++order,
        Width.LONG,
        "Column bloom filters");
    def.define(
        GROUP_VAR_INT_CONFIG,
        Type.BOOLEAN,
        false,
        Importance.LOW,
        "Allows group_var_int in "
            + ENCODING_CONFIG
            + " (INT32 and INT64 columns). Only for files read by pq or this connector's source: "
            + GROUP_VAR_INT_READERS
            + ". The task logs a warning naming the columns.",
        group,
        ++order,
        Width.SHORT,
        "Allow GROUP_VAR_INT");
  }

  /** The rules between these keys, as {@link SinkConfigRules#problems} reports them. */
  static List<ConfigProblem> problems(Function<String, Object> parsed) {
    List<ConfigProblem> problems = new ArrayList<>();
    if (!(parsed.apply(ENCODING_CONFIG) instanceof List<?> entries)) {
      return problems;
    }
    for (Object entry : entries) {
      String text = entry.toString();
      if (encoding(text) == Encoding.GROUP_VAR_INT
          && !Boolean.TRUE.equals(parsed.apply(GROUP_VAR_INT_CONFIG))) {
        problems.add(
            ConfigProblem.about(
                ENCODING_CONFIG,
                "'"
                    + text.trim()
                    + "' asks for GROUP_VAR_INT, which "
                    + GROUP_VAR_INT_READERS
                    + "; set "
                    + GROUP_VAR_INT_CONFIG
                    + "=true to write it anyway",
                GROUP_VAR_INT_CONFIG));
      }
    }
    return problems;
  }

  /** The settings of parsed (valid) values. */
  static ColumnTuning of(Function<String, Object> parsed) {
    Map<String, Encoding> encodings = new LinkedHashMap<>();
    for (String entry : entries(parsed, ENCODING_CONFIG)) {
      encodings.put(path(entry), encoding(entry));
    }
    Map<String, Boolean> dictionaries = new LinkedHashMap<>();
    for (String entry : entries(parsed, DICTIONARY_CONFIG)) {
      dictionaries.put(path(entry), onOff(entry));
    }
    Map<String, Boolean> statistics = new LinkedHashMap<>();
    for (String entry : entries(parsed, STATISTICS_CONFIG)) {
      statistics.put(path(entry), onOff(entry));
    }
    Map<String, BloomFilter> bloomFilters = new LinkedHashMap<>();
    for (String entry : entries(parsed, BLOOM_FILTER_CONFIG)) {
      bloomFilters.put(path(entry), bloomFilter(entry));
    }
    return new ColumnTuning(encodings, dictionaries, statistics, bloomFilters);
  }

  /**
   * Puts the settings into {@code builder}; a bloom filter's missing sizes are the file-wide ones.
   * Logs the GROUP_VAR_INT warning.
   */
  void apply(WriterOptions.Builder builder, long defaultNdv, double defaultFpp) {
    encodings.forEach(builder::columnEncoding);
    dictionaries.forEach(builder::columnDictionary);
    statistics.forEach(builder::columnStatistics);
    bloomFilters.forEach(
        (path, bloom) ->
            builder.bloomFilter(
                path,
                bloom.ndv() == null ? defaultNdv : bloom.ndv(),
                bloom.fpp() == null ? defaultFpp : bloom.fpp()));
    List<String> groupVarInt = new ArrayList<>();
    encodings.forEach(
        (path, encoding) -> {
          if (encoding == Encoding.GROUP_VAR_INT) {
            groupVarInt.add(path);
          }
        });
    if (!groupVarInt.isEmpty()) {
      LOG.warn(
          "Columns {} are written in GROUP_VAR_INT ({}=true): {}",
          groupVarInt,
          GROUP_VAR_INT_CONFIG,
          GROUP_VAR_INT_READERS);
    }
  }

  /**
   * Checks the settings against the schema of a file about to be opened for {@code topic}: an
   * encoding the column's type does not define, a bloom filter on a BOOLEAN column, or a path that
   * names a group rather than a column is a {@link ConnectException} naming key, column and topic.
   */
  void check(MessageType schema, String topic) {
    if (encodings.isEmpty()
        && dictionaries.isEmpty()
        && statistics.isEmpty()
        && bloomFilters.isEmpty()) {
      return;
    }
    Map<String, ColumnDescriptor> columns = new LinkedHashMap<>();
    for (ColumnDescriptor column : schema.columns()) {
      columns.put(column.dottedPath(), column);
    }
    List<String> problems = new ArrayList<>();
    encodings.forEach(
        (path, encoding) -> {
          ColumnDescriptor column = column(columns, path, ENCODING_CONFIG, problems);
          if (column != null && !ValuesCodecs.isDefined(encoding, column.primitive().type())) {
            problems.add(
                ENCODING_CONFIG
                    + ": column "
                    + path
                    + " is "
                    + column.primitive().type()
                    + ", for which "
                    + encoding
                    + " is not defined");
          }
        });
    dictionaries.keySet().forEach(path -> column(columns, path, DICTIONARY_CONFIG, problems));
    statistics.keySet().forEach(path -> column(columns, path, STATISTICS_CONFIG, problems));
    bloomFilters
        .keySet()
        .forEach(
            path -> {
              ColumnDescriptor column = column(columns, path, BLOOM_FILTER_CONFIG, problems);
              if (column != null && column.primitive().type() == PhysicalType.BOOLEAN) {
                problems.add(
                    BLOOM_FILTER_CONFIG
                        + ": column "
                        + path
                        + " is BOOLEAN, which has no bloom filter");
              }
            });
    if (!problems.isEmpty()) {
      throw new ConnectException(
          "The per-column settings do not fit the columns of topic "
              + topic
              + "'s file: "
              + String.join("; ", problems));
    }
  }

  /** The column at {@code path}; null, with a problem if the path names a group, if none. */
  private static ColumnDescriptor column(
      Map<String, ColumnDescriptor> columns, String path, String key, List<String> problems) {
    ColumnDescriptor column = columns.get(path);
    if (column == null) {
      List<String> under = new ArrayList<>();
      for (String leaf : columns.keySet()) {
        if (leaf.startsWith(path + ".")) {
          under.add(leaf);
        }
      }
      if (!under.isEmpty()) {
        problems.add(key + ": " + path + " is a group, not a column; its columns are " + under);
      }
    }
    return column;
  }

  private static List<String> entries(Function<String, Object> parsed, String key) {
    List<String> out = new ArrayList<>();
    if (parsed.apply(key) instanceof List<?> list) {
      for (Object entry : list) {
        if (!entry.toString().isBlank()) {
          out.add(entry.toString().trim());
        }
      }
    }
    return out;
  }

  /** The path of an entry: before its last '=' (the whole entry when it has none). */
  static String path(String entry) {
    int eq = entry.lastIndexOf('=');
    String path = (eq < 0 ? entry : entry.substring(0, eq)).trim();
    if (path.isEmpty()) {
      throw new IllegalArgumentException("'" + entry + "' names no column");
    }
    return path;
  }

  private static String value(String entry) {
    int eq = entry.lastIndexOf('=');
    if (eq < 0) {
      throw new IllegalArgumentException("'" + entry + "' is not PATH=VALUE");
    }
    return entry.substring(eq + 1).trim().toLowerCase(Locale.ROOT);
  }

  static Encoding encoding(String entry) {
    String name = value(entry);
    if (!ENCODINGS.contains(name)) {
      String hint =
          name.contains("dictionary") ? " (dictionary encoding is " + DICTIONARY_CONFIG + ")" : "";
      throw new IllegalArgumentException(
          "'"
              + entry.trim()
              + "': unknown encoding "
              + name
              + hint
              + "; one of "
              + String.join(", ", ENCODINGS));
    }
    return Encoding.valueOf(name.toUpperCase(Locale.ROOT));
  }

  static Boolean onOff(String entry) {
    return switch (value(entry)) {
      case "on", "true" -> true;
      case "off", "false" -> false;
      default -> throw new IllegalArgumentException("'" + entry.trim() + "': on or off");
    };
  }

  static BloomFilter bloomFilter(String entry) {
    if (entry.indexOf('=') < 0) {
      return new BloomFilter(null, null);
    }
    String sizes = value(entry);
    int colon = sizes.indexOf(':');
    String ndvText = (colon < 0 ? sizes : sizes.substring(0, colon)).trim();
    String fppText = colon < 0 ? "" : sizes.substring(colon + 1).trim();
    Long ndv = null;
    Double fpp = null;
    try {
      if (!ndvText.isEmpty()) {
        ndv = Long.parseLong(ndvText);
      }
      if (!fppText.isEmpty()) {
        fpp = Double.parseDouble(fppText);
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "'" + entry.trim() + "': sizes are NDV (a whole number) and FPP (a probability)", e);
    }
    if (ndv != null && ndv < 1) {
      throw new IllegalArgumentException("'" + entry.trim() + "': NDV must be at least 1");
    }
    if (fpp != null && !(fpp >= 1e-6 && fpp <= 0.5)) {
      throw new IllegalArgumentException("'" + entry.trim() + "': FPP must be 1e-6 to 0.5");
    }
    return new BloomFilter(ndv, fpp);
  }

  /** Checks every entry of a list key with its parser, and that no column is named twice. */
  private static final class EntryValidator implements ConfigDef.Validator {
    private final Function<String, Object> parser;

    EntryValidator(Function<String, Object> parser) {
      this.parser = parser;
    }

    @Override
    public void ensureValid(String name, Object value) {
      if (!(value instanceof List<?> list)) {
        return;
      }
      List<String> seen = new ArrayList<>();
      for (Object item : list) {
        String entry = item.toString();
        if (entry.isBlank()) {
          throw new ConfigException(name, value, "has an empty entry");
        }
        String path;
        try {
          path = path(entry);
          parser.apply(entry);
        } catch (IllegalArgumentException e) {
          throw new ConfigException(name, value, e.getMessage());
        }
        if (seen.contains(path)) {
          throw new ConfigException(name, value, "names column " + path + " twice");
        }
        seen.add(path);
      }
    }

    @Override
    public String toString() {
      return "PATH=VALUE entries";
    }
  }
}
