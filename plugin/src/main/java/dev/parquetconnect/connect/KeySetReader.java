package dev.parquetconnect.connect;

import dev.parquetconnect.format.ParquetException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A MAP without values, as the list of its keys. The Row model holds such a map's keys as a map's
 * key set, so keys equal as Parquet values count once: a primitive key is compared by its physical
 * value (byte strings, compared by identity there, never merge), a group key by its Connect value.
 */
final class KeySetReader extends FieldReader {
  private final ColumnCursor kvLead;
  private final ColumnCursor[] kvColumns;
  private final int kvDef;
  private final int kvRep;
  private final FieldReader keyReader;
  private final boolean distinct;
  private final String name;
  private final String keyNulls;

  KeySetReader(
      ColumnCursor kvLead,
      ColumnCursor[] kvColumns,
      int kvDef,
      int kvRep,
      FieldReader keyReader,
      boolean distinct,
      String name,
      String keyNulls) {
    this.keyNulls = keyNulls;
    this.kvLead = kvLead;
    this.kvColumns = kvColumns;
    this.kvDef = kvDef;
    this.kvRep = kvRep;
    this.keyReader = keyReader;
    this.distinct = distinct;
    this.name = name;
  }

  @Override
  Object read() throws IOException, ParquetException {
    List<Object> keys = new ArrayList<>();
    if (kvLead.def() < kvDef) {
      skipAbsent(kvLead, kvColumns, name);
      return keys;
    }
    List<Object> physical = keyReader instanceof Leaf ? new ArrayList<>() : null;
    do {
      Object raw = physical != null ? ((Leaf) keyReader).physicalValue() : null;
      Object k = keyReader.read();
      refuseNull(k, keyNulls);
      if (!distinct) {
        keys.add(k);
      } else if (physical != null) {
        if (!physical.contains(raw)) {
          physical.add(raw);
          keys.add(k);
        }
      } else if (!keys.contains(k)) {
        keys.add(k);
      }
    } while (repeats(kvLead, kvRep, kvDef, name));
    return keys;
  }
}
