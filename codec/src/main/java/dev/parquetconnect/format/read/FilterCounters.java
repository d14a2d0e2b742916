package dev.parquetconnect.format.read;

/**
 * What a filtered {@link RowReader} did: row groups considered and skipped by their metadata, rows
 * skipped with their pages, rows tested one by one and returned. Read while or after reading.
 */
public final class FilterCounters {
  long rowGroups;
  long rowGroupsSkipped;
  long rowsSkipped;
  long rowsTested;
  long rowsReturned;

  /** Row groups the filter was checked against. */
  public long rowGroups() {
    return rowGroups;
  }

  /** Row groups ruled out by statistics or bloom filters, never opened. */
  public long rowGroupsSkipped() {
    return rowGroupsSkipped;
  }

  /** Rows of opened or skipped row groups ruled out without being read. */
  public long rowsSkipped() {
    return rowsSkipped;
  }

  /** Rows whose values were read and tested. */
  public long rowsTested() {
    return rowsTested;
  }

  public long rowsReturned() {
    return rowsReturned;
  }

  @Override
  public String toString() {
    return "row groups "
        + rowGroups
        + " (skipped "
        + rowGroupsSkipped
        + "), rows skipped "
        + rowsSkipped
        + ", tested "
        + rowsTested
        + ", returned "
        + rowsReturned;
  }
}
