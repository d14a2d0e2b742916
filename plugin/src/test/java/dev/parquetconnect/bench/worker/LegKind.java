package dev.parquetconnect.bench.worker;

/**
 * The legs of {@code bin/bench worker}: one sink configuration each, run on the same worker over
 * the same records.
 *
 * <p>Our sink's Iceberg table mode becomes a further constant here once the sink has it, with its
 * {@link Leg} built in {@link #leg}: our sink's connector configuration with the table mode's keys
 * (as {@link OurSinkLeg} builds it, plus a Hadoop catalog under the leg's output directory), and
 * its last commit recognised by {@link IcebergTableState#lastCommit}, as {@link IcebergSinkLeg}'s
 * is, so that both tables are measured and read back alike.
 */
public enum LegKind implements WorkerBenchOptions.Named {
  /** Our sink behind Kafka's JsonConverter: what a worker runs today. */
  OURS_JSON_CONVERTER("ours-jsonconverter"),
  /** Our sink parsing the raw JSON bytes itself ({@code input.format=json}, ByteArrayConverter). */
  OURS_INPUT_JSON("ours-input-json"),
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
      case OURS_JSON_CONVERTER -> new OurSinkLeg(this, false);
      case OURS_INPUT_JSON -> new OurSinkLeg(this, true);
      case ICEBERG_JSON_CONVERTER -> new IcebergSinkLeg(this);
    };
  }
}
