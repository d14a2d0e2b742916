package dev.parquetconnect.connect;

import java.util.ArrayList;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;

/**
 * What is wrong with a value {@link ConnectRecordShredder} was given, and where: the path is built
 * on the way out of the plan (each node adds its name), so a good record pays nothing for it. No
 * stack trace: it is control flow, turned into a {@link DataException} at the top.
 */
final class BadValue extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final ArrayList<String> path = new ArrayList<>();

  BadValue(String message) {
    super(message, null, false, false);
  }

  static BadValue wrongClass(Object value, Schema schema) {
    return new BadValue(
        "expected " + ConnectTypes.describe(schema) + ", got a " + value.getClass().getName());
  }

  static BadValue wrongClass(Object value, String expected) {
    return new BadValue("expected " + expected + ", got a " + value.getClass().getName());
  }

  BadValue under(String segment) {
    path.add(segment);
    return this;
  }

  String describe() {
    if (path.isEmpty()) {
      return "the value: " + getMessage();
    }
    StringBuilder out = new StringBuilder("field ");
    for (int i = path.size() - 1; i >= 0; i--) {
      String s = path.get(i);
      if (i < path.size() - 1 && !s.startsWith("[") && !s.startsWith("{")) {
        out.append('.');
      }
      out.append(s);
    }
    return out.append(": ").append(getMessage()).toString();
  }
}
