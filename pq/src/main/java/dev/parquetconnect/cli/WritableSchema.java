package dev.parquetconnect.cli;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.SchemaElement;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.SchemaConverter;
import java.util.ArrayList;
import java.util.List;

/**
 * A read file's schema made fit to be written back, annotations exactly as the input wrote them:
 * its footer's schema elements are written again as they are (names, repetition, physical types,
 * logical and converted types, scale and precision, field ids), so a column with only a legacy
 * converted type keeps only that, and every engine types the rewritten column as it typed the
 * input's. (Our reader derives a logical type from a converted type, and writing that derived type
 * would change some columns' types: DuckDB reads a TIMESTAMP_MILLIS column as TIMESTAMP, but
 * TIMESTAMP(isAdjustedToUTC=true) as TIMESTAMP WITH TIME ZONE.)
 *
 * <p>One exception: a logical type this reader did not understand ({@link
 * LogicalType.Unrecognized}) had its content skipped when the footer was read, so it cannot be
 * written again. Such a column keeps its converted type, if any, and its values, which the reader
 * already treats as plain physical values; the caller warns about it.
 */
final class WritableSchema {
  private final MessageType schema;
  private final List<SchemaElement> footer;
  private final List<String> droppedAnnotations;

  private WritableSchema(
      MessageType schema, List<SchemaElement> footer, List<String> droppedAnnotations) {
    this.schema = schema;
    this.footer = footer;
    this.droppedAnnotations = droppedAnnotations;
  }

  /** The schema of a file whose footer lists {@code elements} (root first, depth first). */
  static WritableSchema of(List<SchemaElement> elements) throws CorruptDataException {
    List<String> dropped = new ArrayList<>();
    List<SchemaElement> footer = new ArrayList<>(elements.size());
    List<String> parents = new ArrayList<>();
    List<Integer> remaining = new ArrayList<>();
    for (int i = 0; i < elements.size(); i++) {
      SchemaElement e = elements.get(i);
      while (!remaining.isEmpty() && remaining.get(remaining.size() - 1) == 0) {
        remaining.remove(remaining.size() - 1);
        parents.remove(parents.size() - 1);
      }
      String path = i == 0 ? "" : String.join("", parents) + e.name();
      if (!remaining.isEmpty()) {
        remaining.set(remaining.size() - 1, remaining.get(remaining.size() - 1) - 1);
      }
      if (e.logicalType() instanceof LogicalType.Unrecognized u) {
        dropped.add(path + " (logical type id " + u.fieldId() + ")");
        e = withoutLogicalType(e);
      }
      footer.add(e);
      if (e.numChildren() != null && e.numChildren() > 0) {
        parents.add(i == 0 ? "" : e.name() + ".");
        remaining.add(e.numChildren());
      }
    }
    return new WritableSchema(
        SchemaConverter.fromSchemaElements(footer), List.copyOf(footer), List.copyOf(dropped));
  }

  private static SchemaElement withoutLogicalType(SchemaElement e) {
    return new SchemaElement(
        e.type(),
        e.typeLength(),
        e.repetitionType(),
        e.name(),
        e.numChildren(),
        e.convertedType(),
        e.scale(),
        e.precision(),
        e.fieldId(),
        null);
  }

  /** The schema to write. */
  MessageType schema() {
    return schema;
  }

  /** The footer's schema elements to write, the input's own (see the class comment). */
  List<SchemaElement> footer() {
    return footer;
  }

  /** The columns whose unknown annotation is not written, with the annotation's id. */
  List<String> droppedAnnotations() {
    return droppedAnnotations;
  }
}
