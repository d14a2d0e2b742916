package dev.parquetconnect.connect;

import dev.parquetconnect.format.ParquetException;
import java.io.IOException;

/** An optional group: null where its first column says it is absent. */
final class OptionalReader extends FieldReader {
  private final FieldReader instance;

  OptionalReader(FieldReader instance) {
    this.instance = instance;
  }

  @Override
  Object read() throws IOException, ParquetException {
    if (lead.def() < def) {
      skipAbsent(lead, columns, lead.name);
      return null;
    }
    return instance.read();
  }
}
