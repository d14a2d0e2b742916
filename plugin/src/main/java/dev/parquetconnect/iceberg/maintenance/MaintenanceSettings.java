package dev.parquetconnect.iceberg.maintenance;

/**
 * The table maintenance a sink runs ({@link MaintenanceConfig#settings}).
 *
 * @param compaction what compaction does, when enabled
 * @param compactionEnabled {@code iceberg.compaction.enabled}
 * @param compactionIntervalMs how often a compaction run starts
 * @param expiryEnabled {@code iceberg.snapshots.expire.enabled}
 * @param snapshotMaxAgeMs snapshots older than this are expired (see {@link SnapshotExpiry})
 * @param snapshotsToKeep the newest snapshots of the main branch always kept
 * @param orphansEnabled {@code iceberg.orphans.enabled}
 * @param orphanMinAgeMs an unreferenced data file younger than this is left alone
 * @param cleanupIntervalMs how often expiry and orphan clean-up run
 */
public record MaintenanceSettings(
    CompactionPolicy compaction,
    boolean compactionEnabled,
    long compactionIntervalMs,
    boolean expiryEnabled,
    long snapshotMaxAgeMs,
    int snapshotsToKeep,
    boolean orphansEnabled,
    long orphanMinAgeMs,
    long cleanupIntervalMs) {

  /** Whether any maintenance is on. */
  public boolean anyEnabled() {
    return compactionEnabled || expiryEnabled || orphansEnabled;
  }
}
