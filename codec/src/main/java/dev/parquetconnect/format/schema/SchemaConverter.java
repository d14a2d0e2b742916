package dev.parquetconnect.format.schema;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.meta.ConvertedType;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.SchemaElement;
import java.util.ArrayList;
import java.util.List;

/**
 * Converts between the footer's depth-first list of {@link SchemaElement}s and a {@link
 * MessageType}. Reading is strict about structure (counts, types, lengths) and lenient about
 * annotations, as LogicalTypes.md asks: an old file's converted type becomes its logical type, and
 * an annotation that does not fit its column is kept but ignored for ordering.
 */
public final class SchemaConverter {
  /** Deeper nesting than this is not a real schema; refusing it keeps recursion bounded. */
  static final int MAX_DEPTH = 256;

  private SchemaConverter() {}

  public static MessageType fromSchemaElements(List<SchemaElement> elements)
      throws CorruptDataException {
    if (elements == null || elements.isEmpty()) {
      throw new CorruptDataException("schema: the footer has no schema elements");
    }
    SchemaElement rootElement = elements.get(0);
    int rootChildren = rootElement.numChildren() == null ? 0 : rootElement.numChildren();
    Cursor cursor = new Cursor(elements);
    cursor.pos = 1;
    List<SchemaNode> fields = readChildren(cursor, rootChildren, rootElement.name(), 1);
    if (cursor.pos != elements.size()) {
      throw new CorruptDataException(
          "schema: "
              + (elements.size() - cursor.pos)
              + " schema elements follow the tree the"
              + " root's num_children describes");
    }
    return new MessageType(rootElement.name(), fields);
  }

  private static final class Cursor {
    final List<SchemaElement> elements;
    int pos;

    Cursor(List<SchemaElement> elements) {
      this.elements = elements;
    }
  }

  private static List<SchemaNode> readChildren(Cursor cursor, int count, String parent, int depth)
      throws CorruptDataException {
    if (depth > MAX_DEPTH) {
      throw new CorruptDataException("schema: nesting deeper than " + MAX_DEPTH + " at " + parent);
    }
    if (count < 0 || count > cursor.elements.size() - cursor.pos) {
      throw new CorruptDataException(
          "schema: group "
              + parent
              + " claims "
              + count
              + " children but only "
              + (cursor.elements.size() - cursor.pos)
              + " schema elements remain");
    }
    List<SchemaNode> fields = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      fields.add(readNode(cursor, parent, depth));
    }
    return fields;
  }

  private static SchemaNode readNode(Cursor cursor, String parent, int depth)
      throws CorruptDataException {
    int index = cursor.pos++;
    if (index >= cursor.elements.size()) {
      // The count was checked when the group started, but earlier siblings' subtrees may
      // have used up the elements it counted on.
      throw new CorruptDataException(
          "schema: group " + parent + " claims more children than there are schema elements");
    }
    SchemaElement e = cursor.elements.get(index);
    String where = "schema element " + index + " (" + parent + "." + e.name() + ")";
    FieldRepetitionType repetition = e.repetitionType();
    if (repetition == null) {
      throw new CorruptDataException(where + " has no repetition type");
    }
    LogicalType logical =
        e.logicalType() != null && !isParquetJavaInterval(e)
            ? e.logicalType()
            : LogicalTypes.fromConvertedType(e.convertedType(), e.scale(), e.precision());
    boolean group = e.numChildren() != null && (e.numChildren() > 0 || e.type() == null);
    if (group) {
      List<SchemaNode> children =
          readChildren(cursor, e.numChildren(), parent + "." + e.name(), depth + 1);
      return new GroupNode(e.name(), repetition, children, logical, e.convertedType(), e.fieldId());
    }
    PhysicalType type = e.type();
    if (type == null) {
      throw new CorruptDataException(where + " is neither a group nor has a physical type");
    }
    int typeLength = 0;
    if (type == PhysicalType.FIXED_LEN_BYTE_ARRAY) {
      if (e.typeLength() == null || e.typeLength() <= 0) {
        throw new CorruptDataException(
            where + ": FIXED_LEN_BYTE_ARRAY needs a positive type_length, got " + e.typeLength());
      }
      typeLength = e.typeLength();
    }
    return new PrimitiveNode(
        e.name(), repetition, type, typeLength, logical, e.convertedType(), e.fieldId());
  }

  /**
   * parquet-java has no logical type for INTERVAL and writes such a column with the UNKNOWN logical
   * type beside the INTERVAL converted type. UNKNOWN would mean "always null", which these columns
   * are not: the converted type is the annotation (parquet-java reads it so).
   */
  private static boolean isParquetJavaInterval(SchemaElement e) {
    return e.logicalType() instanceof LogicalType.NullType
        && e.convertedType() == ConvertedType.INTERVAL;
  }

  /** The footer's schema list for {@code schema}, root first, as parquet-java writes it. */
  public static List<SchemaElement> toSchemaElements(MessageType schema) {
    List<SchemaElement> out = new ArrayList<>();
    out.add(
        new SchemaElement(
            null, null, null, schema.name(), schema.fields().size(), null, null, null, null, null));
    for (SchemaNode field : schema.fields()) {
      write(field, out);
    }
    return out;
  }

  private static void write(SchemaNode node, List<SchemaElement> out) {
    if (node instanceof GroupNode group) {
      out.add(
          new SchemaElement(
              null,
              null,
              group.repetition(),
              group.name(),
              group.fieldCount(),
              group.convertedType(),
              null,
              null,
              group.fieldId(),
              group.logicalType()));
      for (SchemaNode child : group.fields()) {
        write(child, out);
      }
      return;
    }
    PrimitiveNode leaf = (PrimitiveNode) node;
    Integer scale = null;
    Integer precision = null;
    if (leaf.logicalType() instanceof LogicalType.DecimalType d) {
      scale = d.scale();
      precision = d.precision();
    }
    out.add(
        new SchemaElement(
            leaf.type(),
            leaf.type() == PhysicalType.FIXED_LEN_BYTE_ARRAY ? leaf.typeLength() : null,
            leaf.repetition(),
            leaf.name(),
            null,
            leaf.convertedType(),
            scale,
            precision,
            leaf.fieldId(),
            leaf.logicalType()));
  }
}
