package dev.parquetconnect.connect;

/**
 * {@code schema.compatibility}: how a sink treats a record whose schema differs from the open
 * file's. See {@link SchemaEvolution} for what each value does.
 */
public enum SchemaCompatibility {
  /** Any schema change, a doc or version included, starts a new file. */
  NONE,
  /**
   * Newer schemas read older data: a file keeps the newest schema seen, and records of older
   * schemas are projected to it (fields added since get their defaults or null). Docs and other
   * parameters that are not data do not stop a projection; an older version with an enum symbol the
   * newer one removed does.
   */
  BACKWARD,
  /**
   * Older schemas read newer data: a file keeps the oldest schema seen, and records of newer
   * schemas are projected to it (fields added since are dropped). A newer version with an enum
   * symbol the older one lacks is not projected.
   */
  FORWARD,
  /** Both; a file keeps the newest schema, as with BACKWARD. */
  FULL
}
