package dev.parquetconnect.connect;

import dev.parquetconnect.format.ParquetException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** A LIST group's elements (the group itself is present). */
final class ListReader extends FieldReader {
  private final ColumnCursor repeatedLead;
  private final ColumnCursor[] repeatedColumns;
  private final int repDef;
  private final int repRep;
  private final FieldReader element;
  private final String name;
  private final String elementNulls;

  ListReader(
      ColumnCursor repeatedLead,
      ColumnCursor[] repeatedColumns,
      int repDef,
      int repRep,
      FieldReader element,
      String name,
      String elementNulls) {
    this.repeatedLead = repeatedLead;
    this.repeatedColumns = repeatedColumns;
    this.repDef = repDef;
    this.repRep = repRep;
    this.element = element;
    this.name = name;
    this.elementNulls = elementNulls;
  }

  @Override
  Object read() throws IOException, ParquetException {
    return readList();
  }

  List<Object> readList() throws IOException, ParquetException {
    if (repeatedLead.def() < repDef) {
      skipAbsent(repeatedLead, repeatedColumns, name); // present but empty
      return new ArrayList<>();
    }
    List<Object> elements = new ArrayList<>(elementsAhead(repeatedLead, repRep));
    do {
      Object e = element.read();
      refuseNull(e, elementNulls);
      elements.add(e);
    } while (repeats(repeatedLead, repRep, repDef, name));
    return elements;
  }
}
