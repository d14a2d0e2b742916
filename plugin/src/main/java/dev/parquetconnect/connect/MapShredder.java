package dev.parquetconnect.connect;

import java.util.Map;

/** A MAP, or a map stored as a LIST of {key, value} entries: the walk is the same. */
final class MapShredder extends FieldShredder {
  private final FieldShredder key;
  private final FieldShredder value;
  private final int entryRep;

  MapShredder(FieldShredder key, FieldShredder value, int entryRep) {
    this.key = key;
    this.value = value;
    this.entryRep = entryRep;
  }

  @Override
  void check(Object v) {
    if (!(v instanceof Map<?, ?> map)) {
      throw BadValue.wrongClass(v, "a Map");
    }
    for (Map.Entry<?, ?> e : map.entrySet()) {
      try {
        key.checkField(e.getKey());
      } catch (BadValue bad) {
        throw bad.under("{key " + e.getKey() + "}");
      }
      try {
        value.checkField(e.getValue());
      } catch (BadValue bad) {
        throw bad.under("{" + e.getKey() + "}");
      }
    }
  }

  @Override
  void write(Object v, int rep) {
    Map<?, ?> map = (Map<?, ?>) v;
    if (map.isEmpty()) {
      writeNulls(rep, def);
      return;
    }
    int r = rep;
    for (Map.Entry<?, ?> e : map.entrySet()) {
      key.writeField(e.getKey(), r);
      value.writeField(e.getValue(), r);
      r = entryRep;
    }
  }
}
