package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.UnsupportedFeatureException;

/** Thrift enum {@code Encoding}, with its wire values (1 is the early drafts' GROUP_VAR_INT). */
public enum Encoding {
  PLAIN(0),
  GROUP_VAR_INT(1),
  PLAIN_DICTIONARY(2),
  RLE(3),
  BIT_PACKED(4),
  DELTA_BINARY_PACKED(5),
  DELTA_LENGTH_BYTE_ARRAY(6),
  DELTA_BYTE_ARRAY(7),
  RLE_DICTIONARY(8),
  BYTE_STREAM_SPLIT(9);

  private static final Encoding[] BY_VALUE = values();

  private final int value;

  Encoding(int value) {
    this.value = value;
  }

  public int value() {
    return value;
  }

  /** Whether values in this encoding are indices into a dictionary page. */
  public boolean usesDictionary() {
    return this == PLAIN_DICTIONARY || this == RLE_DICTIONARY;
  }

  /** Null for a value a newer writer may define; metadata keeps unknown encodings as null. */
  public static Encoding fromValueOrNull(int value) {
    return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
  }

  public static Encoding fromValue(int value) throws UnsupportedFeatureException {
    Encoding e = fromValueOrNull(value);
    if (e == null) {
      throw new UnsupportedFeatureException("unknown encoding " + value);
    }
    return e;
  }
}
