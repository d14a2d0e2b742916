package dev.parquetconnect.connect;

import dev.parquetconnect.format.ParquetException;
import java.io.IOException;
import org.apache.kafka.connect.errors.DataException;

/**
 * Reads one field of a present parent instance (or, for the readers of an instance, one present
 * instance) into its Connect value; knows its levels and columns to consume it unread.
 */
abstract class FieldReader {
  /** Definition level at which the field is present; repetition level of its repeats. */
  int def;

  int rep;

  /** The repetition level of the parent instance: entries above it belong to this field. */
  int parentRep;

  ColumnCursor[] columns;
  ColumnCursor lead;

  /** The file and row being read, for errors and the record's bound on values. */
  RecordScope scope;

  void init(RecordScope scope, int def, int rep, int parentRep, ColumnCursor[] columns) {
    this.scope = scope;
    this.def = def;
    this.rep = rep;
    this.parentRep = parentRep;
    this.columns = columns;
    this.lead = columns[0];
  }

  /** The Connect value, or null for an absent optional field. */
  abstract Object read() throws IOException, ParquetException;

  /**
   * How many elements the repeated field starting at {@code leadColumn}'s current entry has, as far
   * as the current batch shows (the entries repeating at {@code repLevel} before one above it):
   * lists are allocated at their size, not grown.
   */
  final int elementsAhead(ColumnCursor leadColumn, int repLevel) {
    int[] r = leadColumn.repetition;
    int n = 1;
    for (int i = leadColumn.pos + 1, end = leadColumn.size; i < end; i++) {
      int level = r[i];
      if (level < repLevel) {
        break;
      }
      if (level == repLevel) {
        n++;
      }
    }
    return n;
  }

  /**
   * Refuses a null element of a collection as Connect's validating put would: {@code nullProblem}
   * is the message {@link FieldReaderCompiler} made for the collection, or null where nulls are
   * allowed.
   */
  static void refuseNull(Object element, String nullProblem) {
    if (element == null && nullProblem != null) {
      throw new DataException(nullProblem);
    }
  }

  /** Takes the one entry an absent field leaves in each column beneath it. */
  final void skipAbsent(ColumnCursor leadColumn, ColumnCursor[] under, String name)
      throws IOException, ParquetException {
    int d = leadColumn.def();
    int r = leadColumn.rep();
    if (d < 0) {
      throw scope.corrupt(leadColumn, "the column ends inside the row");
    }
    for (ColumnCursor c : under) {
      if (c.def() != d || c.rep() != r) {
        throw scope.corrupt(
            c,
            "levels (r"
                + c.rep()
                + ", d"
                + c.def()
                + ") disagree with those of "
                + "column "
                + leadColumn.name
                + " (r"
                + r
                + ", d"
                + d
                + ") on where "
                + name
                + " is absent");
      }
      c.advance();
    }
  }

  /**
   * Whether the repeated field led by {@code leadColumn} has another element: the next entry
   * repeats at the field's level {@code repLevel}.
   */
  final boolean repeats(ColumnCursor leadColumn, int repLevel, int defLevel, String name)
      throws IOException, ParquetException {
    int r = leadColumn.rep();
    if (r < repLevel) {
      return false;
    }
    if (r > repLevel) {
      throw scope.corrupt(
          leadColumn,
          "repetition level "
              + r
              + " after a complete element of "
              + name
              + " (level "
              + repLevel
              + ")");
    }
    if (leadColumn.def() < defLevel) {
      throw scope.corrupt(
          leadColumn,
          "an element of "
              + name
              + " repeats with definition level "
              + leadColumn.def()
              + ", below the field's "
              + defLevel);
    }
    scope.countElement(leadColumn);
    return true;
  }
}
