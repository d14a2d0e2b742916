package dev.parquetconnect.sink.commit.iceberg;

/**
 * The table a topic's records go to: {@code iceberg.table} with {@code ${topic}} replaced, split
 * into namespace levels and table name at its dots. Iceberg's own names are plain strings; the
 * template is checked only for what would make every table name unusable.
 */
final class TableNames {
  private TableNames() {}

  /** Why a template cannot name tables, or null. */
  static String problem(String template) {
    if (template.isEmpty()) {
      return "must name a table (namespace.table, ${topic} for the topic)";
    }
    String sample = resolve(template, "topic");
    if (!sample.contains(".")) {
      return "'" + template + "' has no namespace: write namespace.table, e.g. kafka.${topic}";
    }
    for (String level : sample.split("\\.", -1)) {
      if (level.isEmpty()) {
        return "'" + template + "' has an empty namespace level or table name";
      }
    }
    return null;
  }

  /**
   * The {@code namespace.table} name of a topic's table. A topic's dots become underscores, so a
   * topic never adds namespace levels ({@code orders.v1} is table {@code orders_v1}).
   */
  static String resolve(String template, String topic) {
    return template.replace(IcebergConfig.TOPIC_PLACEHOLDER, topic.replace('.', '_'));
  }
}
