package dev.parquetconnect.sink.commit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The content of the two marker files of a commit attempt, as {@code key=value} lines (keys of the
 * store never contain a line break, so no escaping is needed). Small, readable with {@code cat},
 * and parsed strictly.
 */
public final class CommitMarkers {
  private static final String VERSION = "1";

  private CommitMarkers() {}

  /**
   * Written with a create-if-absent before any file of the commit becomes visible: it claims the
   * attempt (a second writer of the same attempt fails) and lists what will appear.
   *
   * @param end the last offset the commit covers (records skipped or dead-lettered included)
   * @param records how many records the files hold
   * @param writer the random id of the task instance that writes the commit
   * @param task the connector's task, for people reading the marker
   * @param createdMillis the writer's clock when it wrote the intent
   * @param files the keys of the files, each committed once
   */
  record Intent(
      String topic,
      int partition,
      long start,
      long end,
      int attempt,
      long records,
      String writer,
      String task,
      long createdMillis,
      List<String> files) {
    Intent {
      files = List.copyOf(files);
    }

    byte[] toBytes() {
      StringBuilder sb = header(topic, partition, start, end, attempt);
      line(sb, "records", Long.toString(records));
      line(sb, "writer", writer);
      line(sb, "task", task);
      line(sb, "created", Long.toString(createdMillis));
      for (String file : files) {
        line(sb, "file", file);
      }
      return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    static Intent parse(byte[] bytes, String where) {
      Lines lines = new Lines(bytes, where);
      return new Intent(
          lines.one("topic"),
          Integer.parseInt(lines.one("partition")),
          Long.parseLong(lines.one("start")),
          Long.parseLong(lines.one("end")),
          Integer.parseInt(lines.one("attempt")),
          Long.parseLong(lines.one("records")),
          lines.one("writer"),
          lines.one("task"),
          Long.parseLong(lines.one("created")),
          lines.all("file"));
    }
  }

  /**
   * Written with a create-if-absent after the files (done) or instead of them (aborted): one key
   * for both, so that a commit is either done or aborted, never both, whoever writes first.
   */
  public record Outcome(boolean done, long start, long end, int attempt, String writer) {
    byte[] toBytes() {
      StringBuilder sb = header("", 0, start, end, attempt);
      line(sb, "outcome", done ? "done" : "aborted");
      line(sb, "writer", writer);
      return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    static Outcome parse(byte[] bytes, String where) {
      Lines lines = new Lines(bytes, where);
      String outcome = lines.one("outcome");
      if (!outcome.equals("done") && !outcome.equals("aborted")) {
        throw new IllegalArgumentException(where + ": unknown outcome '" + outcome + "'");
      }
      return new Outcome(
          outcome.equals("done"),
          Long.parseLong(lines.one("start")),
          Long.parseLong(lines.one("end")),
          Integer.parseInt(lines.one("attempt")),
          lines.one("writer"));
    }
  }

  private static StringBuilder header(
      String topic, int partition, long start, long end, int attempt) {
    StringBuilder sb = new StringBuilder();
    line(sb, "version", VERSION);
    if (!topic.isEmpty()) {
      line(sb, "topic", topic);
      line(sb, "partition", Integer.toString(partition));
    }
    line(sb, "start", Long.toString(start));
    line(sb, "end", Long.toString(end));
    line(sb, "attempt", Integer.toString(attempt));
    return sb;
  }

  private static void line(StringBuilder sb, String key, String value) {
    if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
      throw new IllegalArgumentException("a marker value must not contain a line break: " + key);
    }
    sb.append(key).append('=').append(value).append('\n');
  }

  /** The lines of a marker, checked for its version. */
  private static final class Lines {
    private final List<String[]> pairs = new ArrayList<>();
    private final String where;

    Lines(byte[] bytes, String where) {
      this.where = where;
      for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
        if (line.isEmpty()) {
          continue;
        }
        int eq = line.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException(where + ": not a marker line: " + line);
        }
        pairs.add(new String[] {line.substring(0, eq), line.substring(eq + 1)});
      }
      String version = one("version");
      if (!VERSION.equals(version)) {
        throw new IllegalArgumentException(
            where
                + ": marker version "
                + version
                + " is not understood by this version of the connector");
      }
    }

    String one(String key) {
      String found = null;
      for (String[] pair : pairs) {
        if (pair[0].equals(key)) {
          if (found != null) {
            throw new IllegalArgumentException(where + ": '" + key + "' appears twice");
          }
          found = pair[1];
        }
      }
      if (found == null) {
        throw new IllegalArgumentException(where + ": '" + key + "' is missing");
      }
      return found;
    }

    List<String> all(String key) {
      List<String> values = new ArrayList<>();
      for (String[] pair : pairs) {
        if (pair[0].equals(key)) {
          values.add(pair[1]);
        }
      }
      return values;
    }
  }
}
