package dev.parquetconnect.connect;

import dev.parquetconnect.format.ParquetException;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.connect.errors.DataException;

/** A LIST of two-field entry groups as a map (maps whose keys are not primitive). */
final class EntryListReader extends FieldReader {
  private final ColumnCursor repeatedLead;
  private final ColumnCursor[] repeatedColumns;
  private final int repDef;
  private final int repRep;
  private final int entryDef;
  private final boolean entryOptional;
  private final FieldReader keyReader;
  private final FieldReader valueReader;
  private final String name;
  private final String keyNulls;
  private final String valueNulls;

  EntryListReader(
      ColumnCursor repeatedLead,
      ColumnCursor[] repeatedColumns,
      int repDef,
      int repRep,
      int entryDef,
      boolean entryOptional,
      FieldReader keyReader,
      FieldReader valueReader,
      String name,
      String keyNulls,
      String valueNulls) {
    this.keyNulls = keyNulls;
    this.valueNulls = valueNulls;
    this.repeatedLead = repeatedLead;
    this.repeatedColumns = repeatedColumns;
    this.repDef = repDef;
    this.repRep = repRep;
    this.entryDef = entryDef;
    this.entryOptional = entryOptional;
    this.keyReader = keyReader;
    this.valueReader = valueReader;
    this.name = name;
  }

  @Override
  Object read() throws IOException, ParquetException {
    Map<Object, Object> entries = new LinkedHashMap<>();
    if (repeatedLead.def() < repDef) {
      skipAbsent(repeatedLead, repeatedColumns, name);
      return entries;
    }
    do {
      if (entryOptional && repeatedLead.def() < entryDef) {
        throw new DataException("a null entry in the map " + name);
      }
      Object k = keyReader.read();
      Object v = valueReader.read();
      refuseNull(k, keyNulls);
      refuseNull(v, valueNulls);
      entries.put(k, v);
    } while (repeats(repeatedLead, repRep, repDef, name));
    return entries;
  }
}
