package dev.parquetconnect.connect;

import dev.parquetconnect.format.ParquetException;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** A MAP group's entries, in file order; a later duplicate key replaces the value. */
final class MapReader extends FieldReader {
  private final ColumnCursor kvLead;
  private final ColumnCursor[] kvColumns;
  private final int kvDef;
  private final int kvRep;
  private final FieldReader keyReader;
  private final FieldReader valueReader;
  private final String name;
  private final String keyNulls;
  private final String valueNulls;

  MapReader(
      ColumnCursor kvLead,
      ColumnCursor[] kvColumns,
      int kvDef,
      int kvRep,
      FieldReader keyReader,
      FieldReader valueReader,
      String name,
      String keyNulls,
      String valueNulls) {
    this.kvLead = kvLead;
    this.kvColumns = kvColumns;
    this.kvDef = kvDef;
    this.kvRep = kvRep;
    this.keyReader = keyReader;
    this.valueReader = valueReader;
    this.name = name;
    this.keyNulls = keyNulls;
    this.valueNulls = valueNulls;
  }

  @Override
  Object read() throws IOException, ParquetException {
    Map<Object, Object> entries = new LinkedHashMap<>();
    if (kvLead.def() < kvDef) {
      skipAbsent(kvLead, kvColumns, name);
      return entries;
    }
    do {
      Object k = keyReader.read();
      Object v = valueReader.read();
      refuseNull(k, keyNulls);
      refuseNull(v, valueNulls);
      entries.put(k, v);
    } while (repeats(kvLead, kvRep, kvDef, name));
    return entries;
  }
}
