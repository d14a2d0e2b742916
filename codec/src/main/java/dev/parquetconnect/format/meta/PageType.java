package dev.parquetconnect.format.meta;

/** Thrift enum {@code PageType}, with its wire values. */
public enum PageType {
  DATA_PAGE(0),
  INDEX_PAGE(1),
  DICTIONARY_PAGE(2),
  DATA_PAGE_V2(3);

  private static final PageType[] BY_VALUE = values();

  private final int value;

  PageType(int value) {
    this.value = value;
  }

  public int value() {
    return value;
  }

  /** The constant for a wire value, or null for a page type a newer writer may define. */
  public static PageType fromValueOrNull(int value) {
    return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
  }
}
