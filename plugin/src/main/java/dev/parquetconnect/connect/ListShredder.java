package dev.parquetconnect.connect;

import java.util.List;
import java.util.RandomAccess;

/** A Connect array as a LIST: an empty list is a null at the list's own level. */
final class ListShredder extends FieldShredder {
  private final FieldShredder element;
  private final int elementRep;

  ListShredder(FieldShredder element, int elementRep) {
    this.element = element;
    this.elementRep = elementRep;
  }

  @Override
  void check(Object value) {
    if (!(value instanceof List<?> list)) {
      throw BadValue.wrongClass(value, "a List");
    }
    if (list instanceof RandomAccess) {
      // By index, as the write pass: no iterator per list.
      for (int i = 0, n = list.size(); i < n; i++) {
        checkElement(list.get(i), i);
      }
      return;
    }
    int i = 0;
    for (Object e : list) {
      checkElement(e, i++);
    }
  }

  private void checkElement(Object e, int i) {
    try {
      element.checkField(e);
    } catch (BadValue bad) {
      throw bad.under("[" + i + "]");
    }
  }

  @Override
  void write(Object value, int rep) {
    List<?> list = (List<?>) value;
    if (list.isEmpty()) {
      writeNulls(rep, def);
      return;
    }
    int r = rep;
    if (list instanceof RandomAccess) {
      for (int i = 0, n = list.size(); i < n; i++) {
        element.writeField(list.get(i), r);
        r = elementRep;
      }
    } else {
      for (Object e : list) {
        element.writeField(e, r);
        r = elementRep;
      }
    }
  }
}
