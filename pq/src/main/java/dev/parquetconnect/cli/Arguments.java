package dev.parquetconnect.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One command's arguments: its positional arguments and its {@code --name value} options, each
 * checked against the names the command declares, so a typo is a usage error rather than an option
 * silently ignored. {@code --name=value} is accepted too; {@code --} ends the options.
 */
final class Arguments {
  private final List<String> positionals;
  private final Map<String, String> options;

  private Arguments(List<String> positionals, Map<String, String> options) {
    this.positionals = Collections.unmodifiableList(positionals);
    this.options = Collections.unmodifiableMap(options);
  }

  /**
   * Parses {@code args} (the words after the command name).
   *
   * @param valued the options that take a value, without the leading dashes
   */
  static Arguments parse(List<String> args, Set<String> valued) throws UsageException {
    return parse(args, valued, Set.of());
  }

  /** As {@link #parse(List, Set)}, with {@code flags}: options without a value ({@link #flag}). */
  static Arguments parse(List<String> args, Set<String> valued, Set<String> flags)
      throws UsageException {
    List<String> positionals = new ArrayList<>();
    Map<String, String> options = new HashMap<>();
    boolean optionsEnded = false;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (optionsEnded || !arg.startsWith("--")) {
        positionals.add(arg);
        continue;
      }
      if (arg.equals("--")) {
        optionsEnded = true;
        continue;
      }
      String name = arg.substring(2);
      String value = null;
      int equals = name.indexOf('=');
      if (equals >= 0) {
        value = name.substring(equals + 1);
        name = name.substring(0, equals);
      }
      if (value == null && flags.contains(name)) {
        if (options.put(name, "true") != null) {
          throw new UsageException("option --" + name + " given twice");
        }
        continue;
      }
      if (!valued.contains(name)) {
        throw new UsageException("unknown option --" + name);
      }
      if (value == null) {
        if (i + 1 == args.size()) {
          throw new UsageException("option --" + name + " needs a value");
        }
        value = args.get(++i);
      }
      if (options.put(name, value) != null) {
        throw new UsageException("option --" + name + " given twice");
      }
    }
    return new Arguments(positionals, options);
  }

  List<String> positionals() {
    return positionals;
  }

  /** The positional arguments, checked to number between {@code min} and {@code max}. */
  List<String> positionals(int min, int max, String what) throws UsageException {
    if (positionals.size() < min || positionals.size() > max) {
      throw new UsageException(
          positionals.size() < min
              ? "missing " + what
              : "unexpected argument " + positionals.get(max));
    }
    return positionals;
  }

  /** Whether a flag (an option without value) was given. */
  boolean flag(String name) {
    return options.containsKey(name);
  }

  /** The option's value, or null when not given. */
  String option(String name) {
    return options.get(name);
  }

  /** The option as a whole number in {@code [min, max]}, or {@code fallback} when not given. */
  long longOption(String name, long min, long max, long fallback) throws UsageException {
    String value = options.get(name);
    if (value == null) {
      return fallback;
    }
    long parsed;
    try {
      parsed = Long.parseLong(value.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + " needs a whole number, got '" + value + "'");
    }
    if (parsed < min || parsed > max) {
      throw new UsageException(
          "--" + name + " must be between " + min + " and " + max + ", got " + parsed);
    }
    return parsed;
  }

  /** The option as one of {@code choices} (case-insensitive, returned lower-case), or null. */
  String choiceOption(String name, List<String> choices) throws UsageException {
    String value = options.get(name);
    if (value == null) {
      return null;
    }
    String lower = value.toLowerCase(java.util.Locale.ROOT);
    if (!choices.contains(lower)) {
      throw new UsageException(
          "--" + name + " must be one of " + String.join(", ", choices) + ", got '" + value + "'");
    }
    return lower;
  }
}
