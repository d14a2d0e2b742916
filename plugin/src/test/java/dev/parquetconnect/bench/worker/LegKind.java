package dev.parquetconnect.bench.worker;

/**
 * The legs of {@code bin/bench worker}: one sink configuration each, run on the same worker over
 * the same records. Our sink's table mode ({@code table.format=iceberg}) runs as {@link OurSinkLeg}
 * with the table keys, a Hadoop catalog under the leg's output directory, and its last commit
 * recognised by {@link IcebergTableState#lastCommit}, as {@link IcebergSinkLeg}'s is, so that both
 * tables are measured and read back alike.
 */
public enum LegKind implements WorkerBenchOptions.Named {
  /** Our sink behind Kafka's JsonConverter: what a worker runs today. */
  OURS_JSON_CONVERTER("ours-jsonconverter"),
  /** Our sink parsing the raw JSON bytes itself ({@code input.format=json}, ByteArrayConverter). */
  OURS_INPUT_JSON("ours-input-json"),
  /** Our sink's table mode behind JsonConverter, Hadoop catalog on local disk. */
  OURS_TABLE_JSON_CONVERTER("ours-table-jsonconverter"),
  /** Our sink's table mode parsing the raw JSON bytes itself ({@code input.format=json}). */
  OURS_TABLE_INPUT_JSON("ours-table-input-json"),
  /** Apache Iceberg's Kafka Connect sink behind JsonConverter, Hadoop catalog on local disk. */
  ICEBERG_JSON_CONVERTER("iceberg-jsonconverter");

  private final String cliName;

  LegKind(String cliName) {
    this.cliName = cliName;
  }

  @Override
  public String cliName() {
    return cliName;
  }

  /** The leg's connector configuration, commit detection and read-back. */
  Leg leg() {
    return switch (this) {
      case OURS_JSON_CONVERTER -> new OurSinkLeg(this, false, false);
      case OURS_INPUT_JSON -> new OurSinkLeg(this, true, false);
      case OURS_TABLE_JSON_CONVERTER -> new OurSinkLeg(this, false, true);
      case OURS_TABLE_INPUT_JSON -> new OurSinkLeg(this, true, true);
      case ICEBERG_JSON_CONVERTER -> new IcebergSinkLeg(this);
    };
  }
}
