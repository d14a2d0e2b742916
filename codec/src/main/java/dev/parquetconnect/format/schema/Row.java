package dev.parquetconnect.format.schema;

import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A generic record: the values of a group's fields, by position. The writer shreds rows into
 * columns and the reader assembles columns back into rows; tools and tests use it, while the
 * connectors shred their own Connect values straight into column writers.
 *
 * <p>Values, by schema node:
 *
 * <ul>
 *   <li>BOOLEAN {@code Boolean}, INT32 {@code Integer}, INT64 {@code Long}, FLOAT {@code Float},
 *       DOUBLE {@code Double}, BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY / INT96 {@code byte[]} (physical
 *       values: annotations are interpreted by whoever shows or converts them);
 *   <li>a group: a {@code Row} of that group;
 *   <li>a LIST group with a valid {@link NestedTypes#listShape shape}: a {@code List} of element
 *       values; a MAP group with a valid {@link NestedTypes#mapShape shape}: a {@code Map}
 *       (insertion-ordered) of key to value;
 *   <li>any other repeated field: a {@code List} of its values;
 *   <li>an absent optional value: {@code null}.
 * </ul>
 */
public final class Row {
  private final GroupNode type;
  private final Object[] values;

  public Row(GroupNode type) {
    this.type = Objects.requireNonNull(type, "type");
    this.values = new Object[type.fieldCount()];
  }

  /** A row of {@code type} holding {@code values} by field position. */
  public static Row of(GroupNode type, Object... values) {
    if (values.length != type.fieldCount()) {
      throw new IllegalArgumentException(
          "group " + type.name() + " has " + type.fieldCount() + " fields, got " + values.length);
    }
    Row row = new Row(type);
    System.arraycopy(values, 0, row.values, 0, values.length);
    return row;
  }

  public GroupNode type() {
    return type;
  }

  public int size() {
    return values.length;
  }

  public Object get(int i) {
    return values[i];
  }

  public Object get(String field) {
    return values[indexOf(field)];
  }

  public Row set(int i, Object value) {
    values[i] = value;
    return this;
  }

  public Row set(String field, Object value) {
    values[indexOf(field)] = value;
    return this;
  }

  private int indexOf(String field) {
    int i = type.fieldIndex(field);
    if (i < 0) {
      throw new IllegalArgumentException("group " + type.name() + " has no field " + field);
    }
    return i;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Row other) || values.length != other.values.length) {
      return false;
    }
    for (int i = 0; i < values.length; i++) {
      if (!valueEquals(values[i], other.values[i])) {
        return false;
      }
    }
    return true;
  }

  /** Deep equality of generic values: byte arrays by content, lists and maps element-wise. */
  public static boolean valueEquals(Object a, Object b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null) {
      return false;
    }
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.equals(x, y);
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      Iterator<?> i = x.iterator();
      Iterator<?> j = y.iterator();
      while (i.hasNext()) {
        if (!valueEquals(i.next(), j.next())) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      // Compared as ordered entry sequences: keys may be byte[], which Map lookups cannot match.
      if (x.size() != y.size()) {
        return false;
      }
      Iterator<? extends Map.Entry<?, ?>> i = x.entrySet().iterator();
      Iterator<? extends Map.Entry<?, ?>> j = y.entrySet().iterator();
      while (i.hasNext()) {
        Map.Entry<?, ?> p = i.next();
        Map.Entry<?, ?> q = j.next();
        if (!valueEquals(p.getKey(), q.getKey()) || !valueEquals(p.getValue(), q.getValue())) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  @Override
  public int hashCode() {
    int h = 1;
    for (Object v : values) {
      h = 31 * h + valueHash(v);
    }
    return h;
  }

  /** A hash consistent with {@link #valueEquals}: shallow for collections, by content for bytes. */
  private static int valueHash(Object v) {
    if (v instanceof byte[] b) {
      return Arrays.hashCode(b);
    }
    if (v instanceof List<?> list) {
      return list.size();
    }
    if (v instanceof Map<?, ?> map) {
      return map.size();
    }
    return Objects.hashCode(v);
  }

  /** A JSON-like rendering for tests and messages; byte strings print as base64. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    appendValue(this, out);
    return out.toString();
  }

  private static void appendValue(Object v, StringBuilder out) {
    if (v instanceof Row row) {
      out.append('{');
      for (int i = 0; i < row.values.length; i++) {
        if (i > 0) {
          out.append(", ");
        }
        out.append(row.type.field(i).name()).append(": ");
        appendValue(row.values[i], out);
      }
      out.append('}');
    } else if (v instanceof byte[] b) {
      out.append("b64:").append(Base64.getEncoder().encodeToString(b));
    } else if (v instanceof List<?> list) {
      out.append('[');
      String sep = "";
      for (Object e : list) {
        out.append(sep);
        appendValue(e, out);
        sep = ", ";
      }
      out.append(']');
    } else if (v instanceof Map<?, ?> map) {
      out.append('{');
      String sep = "";
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.append(sep);
        appendValue(e.getKey(), out);
        out.append(": ");
        appendValue(e.getValue(), out);
        sep = ", ";
      }
      out.append('}');
    } else {
      out.append(v);
    }
  }
}
