package dev.parquetconnect.connect;

import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import dev.parquetconnect.format.write.ColumnChunkWriter;
import dev.parquetconnect.format.write.ParquetFileWriter;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * Compiles the plan of {@link ConnectRecordShredder}: builds its nodes in column order, handing out
 * the file writer's column writers.
 */
final class ShredderCompiler {
  private final ParquetFileWriter writer;

  /** Whether TIMESTAMP leaves are written in microseconds (else milliseconds). */
  private final boolean microsTimestamps;

  private int nextColumn;

  ShredderCompiler(ParquetFileWriter writer, boolean microsTimestamps) {
    this.writer = writer;
    this.microsTimestamps = microsTimestamps;
  }

  /** How many of the writer's columns the nodes compiled so far cover. */
  int columnsUsed() {
    return nextColumn;
  }

  ColumnChunkWriter leaf() {
    return writer.column(nextColumn++);
  }

  ColumnChunkWriter[] columnsFrom(int first) {
    ColumnChunkWriter[] out = new ColumnChunkWriter[nextColumn - first];
    for (int i = 0; i < out.length; i++) {
      out[i] = writer.column(first + i);
    }
    return out;
  }

  /**
   * The node of Parquet field {@code p} holding values of {@code s}, under a parent whose values
   * have definition level {@code parentDef} and repetition level {@code parentRep}; {@code
   * nullable}: whether Connect allows a null here.
   */
  FieldShredder compile(SchemaNode p, Schema s, int parentDef, int parentRep, boolean nullable) {
    int def = parentDef + (p.repetition() == FieldRepetitionType.REQUIRED ? 0 : 1);
    int first = nextColumn;
    ConnectTypes.Kind kind = ConnectTypes.kind(s);
    FieldShredder node;
    switch (kind) {
      case STRUCT:
        {
          GroupNode group = (GroupNode) p;
          // Fields without columns are null in every value (SchemaInference conforms them so).
          List<Field> fields = ConnectToParquet.storedFields(s);
          FieldShredder[] children;
          if (fields.isEmpty()) {
            children = new FieldShredder[] {placeholder(group.field(0), def)};
          } else {
            children = new FieldShredder[fields.size()];
            for (int i = 0; i < children.length; i++) {
              SchemaNode child = group.field(i);
              if (!child.name().equals(fields.get(i).name())) {
                throw new IllegalStateException("the layout's fields are out of order");
              }
              Schema cs = fields.get(i).schema();
              children[i] = compile(child, cs, def, parentRep, cs.isOptional());
            }
          }
          node = new StructShredder(s, fields.toArray(new Field[0]), children);
          break;
        }
      case ARRAY:
        {
          NestedTypes.ListShape shape = NestedTypes.listShape((GroupNode) p);
          int innerRep = parentRep + 1;
          Schema es = s.valueSchema();
          FieldShredder element = compile(shape.element(), es, def + 1, innerRep, es.isOptional());
          node = new ListShredder(element, innerRep);
          break;
        }
      case MAP:
        {
          GroupNode group = (GroupNode) p;
          int innerRep = parentRep + 1;
          Schema ks = s.keySchema();
          Schema vs = s.valueSchema();
          if (group.isMap()) {
            NestedTypes.MapShape shape = NestedTypes.mapShape(group);
            FieldShredder k = compile(shape.key(), ks, def + 1, innerRep, false);
            FieldShredder v = compile(shape.value(), vs, def + 1, innerRep, vs.isOptional());
            node = new MapShredder(k, v, innerRep);
          } else {
            // A LIST of REQUIRED {key, value} entries: the entry adds no definition level.
            GroupNode entry = (GroupNode) NestedTypes.listShape(group).element();
            FieldShredder k = compile(entry.field(0), ks, def + 1, innerRep, ks.isOptional());
            FieldShredder v = compile(entry.field(1), vs, def + 1, innerRep, vs.isOptional());
            node = new MapShredder(k, v, innerRep);
          }
          break;
        }
      default:
        {
          PrimitiveNode leaf = (PrimitiveNode) p;
          ColumnChunkWriter column = leaf();
          node =
              switch (kind) {
                case STRING -> new StringLeafShredder(leaf, s, column);
                case INT32 -> new Int32LeafShredder(leaf, s, column);
                case INT64 -> new Int64LeafShredder(leaf, s, column);
                case FLOAT64 -> new Float64LeafShredder(leaf, s, column);
                case BOOLEAN -> new BooleanLeafShredder(leaf, s, column);
                default -> new LeafShredder(kind, leaf, s, column, microsTimestamps);
              };
          break;
        }
    }
    node.init(p.name(), s, nullable, def, columnsFrom(first));
    return node;
  }

  /** The always-null field of a struct without fields. */
  FieldShredder placeholder(SchemaNode p, int parentDef) {
    int first = nextColumn;
    leaf();
    FieldShredder node = new PlaceholderShredder();
    node.init(p.name(), null, true, parentDef + 1, columnsFrom(first));
    return node;
  }
}
