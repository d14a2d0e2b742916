package dev.parquetconnect.cli;

/** Appends one non-null value of a schema node, in the Row model, as JSON. */
@FunctionalInterface
interface JsonRenderer {
  void render(Object value, StringBuilder out);
}
