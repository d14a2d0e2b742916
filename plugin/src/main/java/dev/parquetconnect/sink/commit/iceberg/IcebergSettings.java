package dev.parquetconnect.sink.commit.iceberg;

import java.util.Map;

/**
 * The table settings of a sink, typed ({@link IcebergConfig#settings}).
 *
 * @param catalogName the catalog's name ({@code iceberg.catalog.name})
 * @param catalogProperties what goes to Iceberg's {@code CatalogUtil}: {@code type}, {@code uri},
 *     {@code warehouse}, the secrets and every other {@code iceberg.catalog.*} key without its
 *     prefix. Holds secrets: never log it ({@link #toString} leaves it out).
 * @param tableTemplate {@code iceberg.table}, with {@code ${topic}}
 * @param autoCreate whether a missing table is created
 * @param tableProperties the properties of a table the sink creates
 * @param evolveSchema whether the table's schema is widened for new files
 * @param partitionSpec the spec of a table the sink creates, {@code ""} for unpartitioned
 * @param commitIntervalMs how often the open files are committed (unless the rotation says sooner)
 */
public record IcebergSettings(
    String catalogName,
    Map<String, String> catalogProperties,
    String tableTemplate,
    boolean autoCreate,
    Map<String, String> tableProperties,
    boolean evolveSchema,
    String partitionSpec,
    long commitIntervalMs) {

  public IcebergSettings {
    catalogProperties = Map.copyOf(catalogProperties);
    tableProperties = Map.copyOf(tableProperties);
  }

  /** The catalog's type: rest, jdbc or hadoop. */
  public String catalogType() {
    return catalogProperties.get("type");
  }

  @Override
  public String toString() {
    return "IcebergSettings[catalog "
        + catalogType()
        + " at "
        + catalogProperties.getOrDefault("uri", catalogProperties.get("warehouse"))
        + ", table "
        + tableTemplate
        + ", auto-create "
        + autoCreate
        + ", evolve "
        + evolveSchema
        + ", spec '"
        + partitionSpec
        + "', interval "
        + commitIntervalMs
        + " ms]";
  }
}
