package dev.parquetconnect.connect;

import dev.parquetconnect.format.ParquetException;
import java.io.IOException;

/**
 * Consumes fields without converting them: in each column, the first entry and those after it that
 * repeat deeper than the parent instance.
 */
final class SkipReader {
  private final RecordScope scope;
  private final ColumnCursor[] skipped;
  private final int parentRep;

  SkipReader(RecordScope scope, ColumnCursor[] skipped, int parentRep) {
    this.scope = scope;
    this.skipped = skipped;
    this.parentRep = parentRep;
  }

  void skip() throws IOException, ParquetException {
    for (ColumnCursor c : skipped) {
      if (!c.hasEntry()) {
        throw scope.corrupt(c, "the column ends inside the row");
      }
      c.advance();
      while (c.rep() > parentRep) {
        c.advance();
      }
    }
  }
}
