package dev.parquetconnect.format.read;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.Row;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rebuilds records from the levels of the projected columns (Dremel assembly), for any nesting. A
 * field is read where its parent is present: its first column's definition level tells whether it
 * is present (and for a repeated field, whether it has any element); an absent field takes one
 * entry, with the same levels, from every column beneath it; a repeated field repeats while its
 * first column's next entry has the field's repetition level. LIST and MAP fields become a {@code
 * List} and an insertion-ordered {@code Map}, as the {@link Row} model describes.
 *
 * <p>Levels that contradict the schema or each other (a null in a required field, columns that
 * disagree on an absent field, a record that does not start at repetition level 0) are {@link
 * CorruptDataException}s naming the column and the row.
 */
final class RecordAssembler {
  private final GroupNode root;
  private final FieldPlan[] fields;
  private final LevelCursor[] cursors;
  private final String file;
  private final int maxRecordValues;
  private long row;
  private int recordValues;

  RecordAssembler(Projection projection, LevelCursor[] cursors, String file, int maxRecordValues) {
    this.root = projection.schema().root();
    this.fields = projection.fields();
    this.cursors = cursors;
    this.file = file;
    this.maxRecordValues = maxRecordValues;
  }

  /** Assembles the next record; {@code rowIndex} is its position in the row group. */
  Row read(long rowIndex) throws IOException, ParquetException {
    row = rowIndex;
    recordValues = 0;
    for (LevelCursor cursor : cursors) {
      int rep = cursor.repetition();
      if (rep != 0) {
        throw corrupt(
            cursor,
            rep < 0
                ? "the column ends before the row"
                : "the row starts at repetition level " + rep + ", not 0");
      }
    }
    Row record = new Row(root);
    for (int i = 0; i < fields.length; i++) {
      record.set(i, readField(fields[i]));
    }
    return record;
  }

  /** Checks that every column is used up once the row group's rows are read. */
  void finish() throws IOException, ParquetException {
    for (LevelCursor cursor : cursors) {
      if (cursor.hasEntry()) {
        throw corrupt(cursor, "the column holds entries after the row group's last row");
      }
    }
  }

  /** One field of a present parent: null, a list of its instances, or its single instance. */
  private Object readField(FieldPlan field) throws IOException, ParquetException {
    if (field.repeated) {
      LevelCursor lead = cursors[field.firstColumn];
      if (lead.definition() < field.definitionLevel) {
        skipAbsent(field);
        return new ArrayList<>(0);
      }
      List<Object> list = new ArrayList<>();
      do {
        list.add(readInstance(field));
      } while (repeats(lead, field));
      return list;
    }
    if (field.optional && cursors[field.firstColumn].definition() < field.definitionLevel) {
      skipAbsent(field);
      return null;
    }
    return readInstance(field);
  }

  /** One present instance of {@code field} (for a repeated field: one element). */
  private Object readInstance(FieldPlan field) throws IOException, ParquetException {
    return switch (field.kind) {
      case PRIMITIVE -> readValue(field);
      case STRUCT -> {
        Row struct = new Row((GroupNode) field.node);
        for (int i = 0; i < field.children.length; i++) {
          struct.set(i, readField(field.children[i]));
        }
        yield struct;
      }
      case LIST -> readList(field);
      case MAP -> readMap(field);
    };
  }

  private Object readValue(FieldPlan field) throws IOException, ParquetException {
    LevelCursor cursor = cursors[field.column];
    int def = cursor.definition();
    if (def != field.definitionLevel) {
      throw corrupt(
          cursor,
          def < 0
              ? "the column ends inside the row"
              : "definition level "
                  + def
                  + " where the schema requires a value (level "
                  + field.definitionLevel
                  + ")");
    }
    Object value = cursor.value();
    consume(cursor);
    return value;
  }

  private List<Object> readList(FieldPlan list) throws IOException, ParquetException {
    FieldPlan repeated = list.children[0];
    LevelCursor lead = cursors[repeated.firstColumn];
    List<Object> elements = new ArrayList<>();
    if (lead.definition() < repeated.definitionLevel) {
      skipAbsent(repeated); // present but empty
      return elements;
    }
    do {
      elements.add(list.twoLevel ? readInstance(repeated) : readField(repeated.children[0]));
    } while (repeats(lead, repeated));
    return elements;
  }

  private Map<Object, Object> readMap(FieldPlan map) throws IOException, ParquetException {
    FieldPlan keyValue = map.children[0];
    LevelCursor lead = cursors[keyValue.firstColumn];
    Map<Object, Object> entries = new LinkedHashMap<>();
    if (lead.definition() < keyValue.definitionLevel) {
      skipAbsent(keyValue);
      return entries;
    }
    do {
      Object key = map.keyIndex < 0 ? null : readField(keyValue.children[map.keyIndex]);
      Object value = map.valueIndex < 0 ? null : readField(keyValue.children[map.valueIndex]);
      entries.put(key, value);
    } while (repeats(lead, keyValue));
    return entries;
  }

  /**
   * Whether the repeated {@code field} has another element: the next entry of its first column
   * repeats at the field's level. An entry repeating deeper (its element was not read) or
   * announcing an element that is not there contradicts the schema.
   */
  private boolean repeats(LevelCursor lead, FieldPlan field) throws IOException, ParquetException {
    int rep = lead.repetition();
    if (rep < field.repetitionLevel) {
      return false;
    }
    if (rep > field.repetitionLevel) {
      throw corrupt(
          lead,
          "repetition level "
              + rep
              + " after a complete element of "
              + field.node.name()
              + " (level "
              + field.repetitionLevel
              + ")");
    }
    if (lead.definition() < field.definitionLevel) {
      throw corrupt(
          lead,
          "an element of "
              + field.node.name()
              + " repeats with definition level "
              + lead.definition()
              + ", below the field's "
              + field.definitionLevel);
    }
    return true;
  }

  /** Takes the one entry an absent field leaves in each column beneath it. */
  private void skipAbsent(FieldPlan field) throws IOException, ParquetException {
    LevelCursor lead = cursors[field.firstColumn];
    int def = lead.definition();
    int rep = lead.repetition();
    if (def < 0) {
      throw corrupt(lead, "the column ends inside the row");
    }
    for (int c = field.firstColumn; c < field.endColumn; c++) {
      LevelCursor cursor = cursors[c];
      if (cursor.definition() != def || cursor.repetition() != rep) {
        throw corrupt(
            cursor,
            "levels (r"
                + cursor.repetition()
                + ", d"
                + cursor.definition()
                + ") disagree with those of column "
                + lead.name
                + " (r"
                + rep
                + ", d"
                + def
                + ") on where "
                + field.node.name()
                + " is absent");
      }
      consume(cursor);
    }
  }

  private void consume(LevelCursor cursor) throws ParquetException {
    if (++recordValues > maxRecordValues) {
      throw new UnsupportedFeatureException(
              "row "
                  + row
                  + " holds more than "
                  + maxRecordValues
                  + " values (ReadOptions.maxRecordValues); read it with the column batch API")
          .at(file, cursor.name, -1);
    }
    cursor.advance();
  }

  private ParquetException corrupt(LevelCursor cursor, String message) {
    return new CorruptDataException("row " + row + ": " + message).at(file, cursor.name, -1);
  }
}
