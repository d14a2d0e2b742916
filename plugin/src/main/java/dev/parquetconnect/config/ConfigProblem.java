package dev.parquetconnect.config;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A rule between keys that a configuration breaks, as both connectors report it: on {@code key}
 * (the REST validate call shows it there), with a message that names the key, since the worker's
 * answer to a refused PUT lists the messages without their keys.
 *
 * <p>{@code involved} are the keys whose own error makes the problem moot: validate leaves the
 * problem out when one of them already has an error (that error says enough). A rule that reads an
 * invalid key as absent and decides for itself names none.
 */
public record ConfigProblem(String key, String message, Set<String> involved) {
  public ConfigProblem {
    involved = Set.copyOf(involved);
  }

  /** Reported on {@code key} whatever the other keys' own errors; the key is prefixed if absent. */
  public static ConfigProblem on(String key, String message) {
    return new ConfigProblem(key, named(key, message), Set.of());
  }

  /** Reported on {@code key} unless it or one of {@code others} has an error of its own. */
  public static ConfigProblem about(String key, String message, String... others) {
    Set<String> involved = new HashSet<>(List.of(others));
    involved.add(key);
    return new ConfigProblem(key, named(key, message), involved);
  }

  private static String named(String key, String message) {
    return message.contains(key) ? message : key + ": " + message;
  }
}
