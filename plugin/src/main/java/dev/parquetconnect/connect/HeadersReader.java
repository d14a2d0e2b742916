package dev.parquetconnect.connect;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.encoding.Dictionary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Header;

/**
 * {@code __kafka_headers}, a LIST of {@code {key, schema, value}}, as ConnectHeaders: the schema's
 * and value's bytes are read in place, not copied.
 */
final class HeadersReader extends FieldReader {
  private final ParquetToConnect mapping;
  private final boolean listOptional;
  private final int repDef;
  private final int repRep;
  private final boolean entryOptional;
  private final int entryDef;
  private final Leaf keyPart;
  private final Leaf schemaPart;
  private final Leaf valuePart;

  /**
   * The values of STRING headers by the header's position (the first few): a header that carries
   * the same value on every record is decoded once.
   */
  private final Utf8Strings[] valueStrings = new Utf8Strings[8];

  /** The keys by position, for the same reason. */
  private final Utf8Strings[] keyStrings = new Utf8Strings[8];

  /** The header added last at each position, which the next record's often repeats. */
  private final Header[] previous = new Header[8];

  HeadersReader(
      ParquetToConnect mapping,
      boolean listOptional,
      int repDef,
      int repRep,
      boolean entryOptional,
      int entryDef,
      Leaf[] parts) {
    this.mapping = mapping;
    this.listOptional = listOptional;
    this.repDef = repDef;
    this.repRep = repRep;
    this.entryOptional = entryOptional;
    this.entryDef = entryDef;
    this.keyPart = parts[0];
    this.schemaPart = parts[1];
    this.valuePart = parts[2];
  }

  @Override
  Object read() throws IOException, ParquetException {
    return readHeaders();
  }

  ConnectHeaders readHeaders() throws IOException, ParquetException {
    ConnectHeaders out = new ConnectHeaders();
    int d = lead.def();
    if (listOptional && d < def || d < repDef) {
      skipAbsent(lead, columns, FileLayout.HEADERS_COLUMN);
      return out;
    }
    int position = 0;
    do {
      if (entryOptional && lead.def() < entryDef) {
        throw new DataException("a null entry in " + FileLayout.HEADERS_COLUMN);
      }
      readEntry(out, position++);
    } while (repeats(lead, repRep, repDef, FileLayout.HEADERS_COLUMN));
    return out;
  }

  private void readEntry(ConnectHeaders out, int position) throws IOException, ParquetException {
    Utf8Strings keys = null;
    Utf8Strings values = null;
    if (position < keyStrings.length) {
      if (keyStrings[position] == null) {
        keyStrings[position] = new Utf8Strings();
        valueStrings[position] = new Utf8Strings();
      }
      keys = keyStrings[position];
      values = valueStrings[position];
    }
    String headerKey = null;
    ColumnCursor k = keyPart.column;
    if (keyPart.present()) {
      int e = k.entry(k.valueIndex);
      int off = k.offsets[e];
      int len = k.offsets[e + 1] - off;
      headerKey =
          k.dictionary != null
              ? k.dictionary.stringAt(e)
              : keys != null
                  ? keys.decode(k.data, off, len)
                  : new String(k.data, off, len, StandardCharsets.UTF_8);
    }
    keyPart.consume();
    // Each column's bytes stay in its batch until that column moves on, which is at the
    // next entry at the earliest.
    ColumnCursor s = schemaPart.column;
    boolean hasSchema = schemaPart.present();
    byte[] schemaData = s.data;
    int schemaEntry = hasSchema ? s.entry(s.valueIndex) : 0;
    int schemaOff = hasSchema ? s.offsets[schemaEntry] : 0;
    int schemaLen = hasSchema ? s.offsets[schemaEntry + 1] - schemaOff : -1;
    schemaPart.consume();
    ColumnCursor v = valuePart.column;
    boolean hasValue = valuePart.present();
    byte[] valueData = v.data;
    int valueEntry = hasValue ? v.entry(v.valueIndex) : 0;
    int valueOff = hasValue ? v.offsets[valueEntry] : 0;
    int valueLen = hasValue ? v.offsets[valueEntry + 1] - valueOff : -1;
    // A dictionary-encoded value's text, should the header be a STRING, is the dictionary's.
    Dictionary valueDictionary = hasValue ? v.dictionary : null;
    valuePart.consume();
    Header added =
        mapping.addHeader(
            out,
            headerKey,
            schemaData,
            schemaOff,
            schemaLen,
            valueData,
            valueOff,
            valueLen,
            valueDictionary,
            valueEntry,
            values,
            position < previous.length ? previous[position] : null);
    if (position < previous.length) {
      previous[position] = added;
    }
  }
}
