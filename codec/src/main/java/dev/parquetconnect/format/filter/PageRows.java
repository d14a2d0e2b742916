package dev.parquetconnect.format.filter;

import dev.parquetconnect.format.meta.PageLocation;
import java.util.List;

/** Checks on the rows an offset index gives its pages. */
public final class PageRows {
  private PageRows() {}

  /**
   * Whether the pages' first row indexes can be trusted for a row group of {@code rowCount} rows:
   * the first page starts at row 0 and every next page strictly later, before the end.
   */
  public static boolean consistent(List<PageLocation> pages, long rowCount) {
    if (pages.isEmpty() || pages.get(0).firstRowIndex() != 0) {
      return false;
    }
    long previous = 0;
    for (int i = 1; i < pages.size(); i++) {
      long first = pages.get(i).firstRowIndex();
      if (first <= previous || first >= rowCount) {
        return false;
      }
      previous = first;
    }
    return true;
  }
}
