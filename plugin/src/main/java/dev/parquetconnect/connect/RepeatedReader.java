package dev.parquetconnect.connect;

import dev.parquetconnect.format.ParquetException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** A repeated field outside a LIST: a list of its instances, empty where it has none. */
final class RepeatedReader extends FieldReader {
  private final FieldReader element;
  private final String name;
  private final String elementNulls;

  RepeatedReader(FieldReader element, String name, String elementNulls) {
    this.element = element;
    this.name = name;
    this.elementNulls = elementNulls;
  }

  @Override
  Object read() throws IOException, ParquetException {
    if (lead.def() < def) {
      skipAbsent(lead, columns, name);
      return new ArrayList<>(0);
    }
    List<Object> list = new ArrayList<>(elementsAhead(lead, rep));
    do {
      Object e = element.read();
      refuseNull(e, elementNulls);
      list.add(e);
    } while (repeats(lead, rep, def, name));
    return list;
  }
}
