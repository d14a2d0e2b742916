package dev.parquetconnect.connect;

/**
 * What the record reader's ranged path left out so far: row groups considered and skipped whole,
 * rows passed over unread (in skipped row groups and skipped pages). Rows of pages that were read
 * but did not match are not counted.
 */
public final class PageCounters {
  long rowGroups;
  long rowGroupsSkipped;
  long rowsSkipped;

  public long rowGroups() {
    return rowGroups;
  }

  public long rowGroupsSkipped() {
    return rowGroupsSkipped;
  }

  public long rowsSkipped() {
    return rowsSkipped;
  }

  @Override
  public String toString() {
    return rowGroups
        + " row groups ("
        + rowGroupsSkipped
        + " skipped), "
        + rowsSkipped
        + " rows passed over unread";
  }
}
