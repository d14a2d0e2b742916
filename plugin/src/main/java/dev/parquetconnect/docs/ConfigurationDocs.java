package dev.parquetconnect.docs;

import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.source.ParquetSourceConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * Generates the key tables of {@code docs/configuration.md} from the connectors' ConfigDefs.
 *
 * <p>The file is prose written by hand with generated regions between {@code <!-- BEGIN GENERATED:
 * sink -->} (or {@code source}) and {@code <!-- END GENERATED -->}; only the regions are rewritten,
 * so the explanations stay next to the tables. The build writes the result to {@code
 * target/generated-docs/configuration.md} ({@code process-test-classes}), {@code
 * ConfigurationDocsTest} fails when it differs from the committed file, and {@code bin/gen-docs}
 * rewrites the committed file.
 *
 * <p>Usage: {@code ConfigurationDocs <template> <output>}; template and output may be the same.
 */
public final class ConfigurationDocs {
  private static final String END = "<!-- END GENERATED -->";
  private static final String BEGIN_PREFIX = "<!-- BEGIN GENERATED: ";
  private static final String BEGIN_SUFFIX = " -->";

  private ConfigurationDocs() {}

  /** The ConfigDefs by region name, in the order the file shows them. */
  static Map<String, ConfigDef> regions() {
    Map<String, ConfigDef> regions = new LinkedHashMap<>();
    regions.put("sink", ParquetSinkConfig.configDef());
    regions.put("source", ParquetSourceConfig.CONFIG_DEF);
    return regions;
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("Usage: ConfigurationDocs <template configuration.md> <output file>");
      System.exit(2);
    }
    Path template = Path.of(args[0]);
    Path output = Path.of(args[1]);
    String generated = render(Files.readString(template, StandardCharsets.UTF_8));
    if (output.getParent() != null) {
      Files.createDirectories(output.getParent());
    }
    Files.writeString(output, generated, StandardCharsets.UTF_8);
  }

  /**
   * {@code document} with every generated region replaced by the tables of its ConfigDef.
   *
   * @throws IllegalArgumentException when a region is unknown, unterminated or missing
   */
  public static String render(String document) {
    Map<String, ConfigDef> regions = regions();
    StringBuilder out = new StringBuilder(document.length());
    List<String> seen = new ArrayList<>();
    int at = 0;
    while (true) {
      int begin = document.indexOf(BEGIN_PREFIX, at);
      if (begin < 0) {
        out.append(document, at, document.length());
        break;
      }
      int nameEnd = document.indexOf(BEGIN_SUFFIX, begin + BEGIN_PREFIX.length());
      int end = document.indexOf(END, begin);
      if (nameEnd < 0 || end < 0) {
        throw new IllegalArgumentException("Unterminated generated region at character " + begin);
      }
      String name = document.substring(begin + BEGIN_PREFIX.length(), nameEnd).trim();
      ConfigDef def = regions.get(name);
      if (def == null) {
        throw new IllegalArgumentException(
            "Unknown generated region '" + name + "'; known: " + regions.keySet());
      }
      seen.add(name);
      int contentStart = nameEnd + BEGIN_SUFFIX.length();
      out.append(document, at, contentStart).append("\n\n").append(tables(def)).append(END);
      at = end + END.length();
    }
    if (!seen.containsAll(regions.keySet())) {
      throw new IllegalArgumentException(
          "The document lacks generated regions; it has " + seen + ", needs " + regions.keySet());
    }
    return out.toString();
  }

  /** One table per group, in the order the groups were defined; internal keys left out. */
  static String tables(ConfigDef def) {
    Map<String, List<ConfigKey>> byGroup = new LinkedHashMap<>();
    for (String group : def.groups()) {
      byGroup.put(group, new ArrayList<>());
    }
    for (ConfigKey key : def.configKeys().values()) {
      if (key.internalConfig) {
        continue;
      }
      byGroup
          .computeIfAbsent(key.group == null ? "Other" : key.group, g -> new ArrayList<>())
          .add(key);
    }
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, List<ConfigKey>> group : byGroup.entrySet()) {
      List<ConfigKey> keys = group.getValue();
      if (keys.isEmpty()) {
        continue;
      }
      keys.sort(Comparator.comparingInt((ConfigKey k) -> k.orderInGroup));
      out.append("### ").append(group.getKey()).append("\n\n");
      out.append("| key | type | default | valid values | importance | description |\n");
      out.append("| --- | --- | --- | --- | --- | --- |\n");
      for (ConfigKey key : keys) {
        out.append("| `")
            .append(key.name)
            .append("` | ")
            .append(key.type.name().toLowerCase(Locale.ROOT))
            .append(" | ")
            .append(cell(defaultOf(key)))
            .append(" | ")
            .append(cell(validValues(key)))
            .append(" | ")
            .append(key.importance.name().toLowerCase(Locale.ROOT))
            .append(" | ")
            .append(cell(key.documentation == null ? "" : key.documentation))
            .append(" |\n");
      }
      out.append('\n');
    }
    return out.toString();
  }

  private static String defaultOf(ConfigKey key) {
    if (key.defaultValue == ConfigDef.NO_DEFAULT_VALUE) {
      return "(required)";
    }
    if (key.defaultValue == null) {
      return "";
    }
    if (key.type == Type.PASSWORD) {
      // Never print a secret, not even a default one.
      return "[hidden]";
    }
    String value =
        key.type == Type.LIST && key.defaultValue instanceof List<?> list
            ? String.join(",", list.stream().map(String::valueOf).toList())
            : String.valueOf(key.defaultValue);
    return value.isEmpty() ? "\"\"" : "`" + value + "`";
  }

  /** The validator's own description, else the values the recommender offers by default. */
  private static String validValues(ConfigKey key) {
    if (key.validator != null) {
      String text = key.validator.toString();
      // A validator without its own toString prints Object's: say nothing rather than that.
      return text.contains("@") && text.startsWith(key.validator.getClass().getName()) ? "" : text;
    }
    if (key.recommender != null) {
      try {
        List<Object> values = key.recommender.validValues(key.name, Map.of());
        if (values != null && !values.isEmpty()) {
          return String.join(", ", values.stream().map(String::valueOf).toList());
        }
      } catch (RuntimeException e) {
        // A recommender that needs other keys' values: nothing to list without them.
      }
    }
    return "";
  }

  /** Markdown table cell text: no line breaks, pipes escaped, tags not taken for HTML. */
  private static String cell(String text) {
    return text.replace("\r", "")
        .replace("\n", " ")
        .replace("|", "\\|")
        .replace("<", "&lt;")
        .replace(">", "&gt;");
  }
}
