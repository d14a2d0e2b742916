package dev.parquetconnect.cli;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code pq}, the command-line tool for Parquet files: {@code schema}, {@code meta}, {@code cat},
 * {@code verify}, {@code rewrite} and {@code merge}, on our own reader and writer.
 *
 * <p>Exit codes: {@value #OK} success, {@value #FAILED} a file is damaged or cannot be read or
 * written, {@value #USAGE} the command line is wrong, {@value #UNSUPPORTED} the file uses something
 * this reader refuses (encryption, a limit). A failure prints one line on stderr, never a stack
 * trace unless {@code --debug} is given.
 */
public final class Pq {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;
  static final int UNSUPPORTED = 3;

  private static final int OUTPUT_BUFFER = 1 << 16;

  private final List<Command> commands;

  private Pq(List<Command> commands) {
    this.commands = commands;
  }

  static Pq withAllCommands() {
    return new Pq(
        List.of(
            new SchemaCommand(),
            new MetaCommand(),
            new CatCommand(),
            new VerifyCommand(),
            new RewriteCommand(),
            new MergeCommand(),
            new AuditCommand()));
  }

  public static void main(String[] args) {
    int code = withAllCommands().run(args, new StandardOutputStream(), System.err);
    System.out.flush();
    System.exit(code);
  }

  /** Runs one command line, writing results to {@code stdout} and messages to {@code err}. */
  int run(String[] args, OutputStream stdout, PrintStream err) {
    List<String> words = new ArrayList<>(Arrays.asList(args));
    boolean debug = removeFlagBeforeOptionsEnd(words, "--debug");
    if (words.isEmpty()) {
      err.print(overview());
      return USAGE;
    }
    String first = words.get(0);
    if (first.equals("--help") || first.equals("-h") || first.equals("help")) {
      return help(words.subList(1, words.size()), stdout, err);
    }
    Command command = find(first);
    if (command == null) {
      err.println("pq: unknown command '" + first + "'");
      err.print(overview());
      return USAGE;
    }
    List<String> rest = new ArrayList<>(words.subList(1, words.size()));
    if (removeFlagBeforeOptionsEnd(rest, "--help") | removeFlagBeforeOptionsEnd(rest, "-h")) {
      return print(command.help(), stdout, err);
    }
    Writer out =
        new BufferedWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), OUTPUT_BUFFER);
    String prefix = "pq " + command.name() + ": ";
    try {
      try {
        int code =
            command.run(
                Arguments.parse(rest, command.valuedOptions(), command.flags()),
                new CommandOutput(out, err));
        out.flush();
        return code;
      } finally {
        // Whatever was printed before a failure still reaches the reader, before the message.
        flushQuietly(out);
      }
    } catch (ClosedOutputException e) {
      return OK;
    } catch (UsageException e) {
      err.println(prefix + e.getMessage());
      err.println("usage: " + synopsis(command) + "   (pq " + command.name() + " --help)");
      return USAGE;
    } catch (InputException e) {
      err.println(prefix + e.getMessage());
      traceIf(debug, e, err);
      return FAILED;
    } catch (ParquetException e) {
      err.println(prefix + describe(e));
      traceIf(debug, e, err);
      return e instanceof UnsupportedFeatureException ? UNSUPPORTED : FAILED;
    } catch (IOException e) {
      err.println(prefix + describe(e));
      traceIf(debug, e, err);
      return FAILED;
    } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
      // A bug or an exhausted heap: still one line, with the means to see more.
      err.println(
          prefix
              + "internal error: "
              + e
              + (debug ? "" : " (run with --debug for the stack trace)"));
      traceIf(debug, e, err);
      return FAILED;
    }
  }

  private int help(List<String> topics, OutputStream stdout, PrintStream err) {
    if (topics.isEmpty()) {
      return print(overview(), stdout, err);
    }
    Command command = find(topics.get(0));
    if (command == null || topics.size() > 1) {
      err.println("pq help: unknown command '" + String.join(" ", topics) + "'");
      err.print(overview());
      return USAGE;
    }
    return print(command.help(), stdout, err);
  }

  private Command find(String name) {
    for (Command command : commands) {
      if (command.name().equals(name)) {
        return command;
      }
    }
    return null;
  }

  String overview() {
    StringBuilder text = new StringBuilder();
    text.append("usage: pq COMMAND [ARGS]   (pq COMMAND --help for one command's help)\n\n");
    text.append("Commands:\n");
    for (Command command : commands) {
      text.append(String.format("  %-8s %s\n", command.name(), command.summary()));
    }
    text.append("\nGlobal option: --debug prints the stack trace of a failure.\n");
    text.append(
        "Exit codes: 0 success, 1 damaged or unreadable file (or I/O error), 2 usage,"
            + " 3 unsupported feature (encryption, a reader limit).\n");
    return text.toString();
  }

  /** The first line of a command's help: its synopsis. */
  private static String synopsis(Command command) {
    String help = command.help();
    int newline = help.indexOf('\n');
    String first = newline < 0 ? help : help.substring(0, newline);
    return first.startsWith("usage: ") ? first.substring("usage: ".length()) : first;
  }

  private static int print(String text, OutputStream stdout, PrintStream err) {
    try {
      stdout.write(text.getBytes(StandardCharsets.UTF_8));
      stdout.flush();
      return OK;
    } catch (ClosedOutputException e) {
      return OK;
    } catch (IOException e) {
      err.println("pq: " + describe(e));
      return FAILED;
    }
  }

  /** Removes {@code flag} where it stands before a {@code --}; whether it was there. */
  private static boolean removeFlagBeforeOptionsEnd(List<String> words, String flag) {
    int end = words.indexOf("--");
    List<String> options = end < 0 ? words : words.subList(0, end);
    return options.removeIf(flag::equals);
  }

  /** The message of a format error: what is wrong and where (file, column, offset). */
  static String describe(ParquetException e) {
    String kind =
        e instanceof CorruptDataException
            ? "corrupt: "
            : e instanceof UnsupportedFeatureException ? "unsupported: " : "";
    return kind + e.getMessage();
  }

  /** An I/O error in one line, naming the file where the exception does. */
  static String describe(IOException e) {
    if (e instanceof NoSuchFileException n) {
      return "no such file: " + n.getFile();
    }
    if (e instanceof AccessDeniedException a) {
      return "permission denied: " + a.getFile();
    }
    if (e instanceof FileSystemException f) {
      return f.getFile() + ": " + (f.getReason() == null ? "I/O error" : f.getReason());
    }
    String message = e.getMessage();
    return "I/O error: " + (message == null ? e.getClass().getSimpleName() : message);
  }

  private static void traceIf(boolean debug, Throwable e, PrintStream err) {
    if (debug) {
      e.printStackTrace(err);
    }
  }

  private static void flushQuietly(Writer out) {
    try {
      out.flush();
    } catch (IOException ignored) {
      // Standard output is gone; the failure being reported matters more.
    }
  }
}
