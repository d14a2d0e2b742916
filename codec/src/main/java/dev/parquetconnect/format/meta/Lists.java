package dev.parquetconnect.format.meta;

import java.util.List;
import java.util.Objects;

/** Immutable copies of the list fields of the metadata records. */
final class Lists {
  private Lists() {}

  /** An immutable copy of a required list; rejects a null list or element. */
  static <T> List<T> copy(List<T> list, String field) {
    return List.copyOf(Objects.requireNonNull(list, field));
  }

  /** An immutable copy of an optional list, keeping null (absent) apart from empty. */
  static <T> List<T> copyOrNull(List<T> list) {
    return list == null ? null : List.copyOf(list);
  }
}
