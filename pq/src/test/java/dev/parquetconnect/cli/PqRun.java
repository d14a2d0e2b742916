package dev.parquetconnect.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** One run of {@code pq} in this JVM: its exit code and what it printed. */
record PqRun(int exit, String out, String err) {

  static PqRun run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try (PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      exit = Pq.withAllCommands().run(args, out, errStream);
    }
    return new PqRun(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  static PqRun run(String command, Path file, String... more) {
    String[] args = new String[more.length + 2];
    args[0] = command;
    args[1] = file.toString();
    System.arraycopy(more, 0, args, 2, more.length);
    return run(args);
  }

  List<String> outLines() {
    return out.lines().toList();
  }

  List<String> errLines() {
    return err.lines().toList();
  }

  /** For assertion messages. */
  String describe() {
    return "exit " + exit + ", stderr: " + err;
  }
}
