package dev.parquetconnect.connect;

/** The one always-null field of a struct without fields (Parquet groups need a field). */
final class PlaceholderShredder extends FieldShredder {
  @Override
  void check(Object value) {}

  @Override
  void write(Object value, int rep) {
    // The struct is present; its placeholder field never is.
    writeNulls(rep, def - 1);
  }
}
