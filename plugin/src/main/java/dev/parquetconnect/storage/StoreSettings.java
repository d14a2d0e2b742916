package dev.parquetconnect.storage;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Typed access to the settings a store is opened with. Values may be strings, numbers, booleans,
 * {@link Secret}s or {@code char[]}s: the connectors turn Kafka's {@code Password} into a {@link
 * Secret} ({@code config.ConnectorStoreSettings}), so storage knows nothing of Kafka. Keys this
 * layer does not know are ignored: the map may be a whole connector config.
 *
 * <p>{@link #toString()} shows only the names of the settings, never a value.
 */
public final class StoreSettings {
  /** Settings whose values are credentials: never logged, never in messages. */
  public static final Set<String> SECRET_KEYS =
      Set.of(
          "aws.access.key.id",
          "aws.secret.access.key",
          "aws.session.token",
          "s3.sse.c.key",
          "s3.tls.truststore.password",
          "aws.sts.external.id");

  /**
   * The setting that carries a {@link DelegatedCredentials} holder (an object, never a string): an
   * S3 store signs with the holder's credentials once it has any.
   */
  public static final String DELEGATED_CREDENTIALS = "delegated.credentials";

  private final Map<String, ?> values;

  public StoreSettings(Map<String, ?> values) {
    this.values = Map.copyOf(Objects.requireNonNull(values, "settings"));
  }

  /** Whether a setting has a value: not blank, and for a secret not empty (as {@link #secret}). */
  public boolean has(String key) {
    Object v = values.get(key);
    return v != null
        && !(v instanceof String s && s.isBlank())
        && !(v instanceof Secret s && s.value().isEmpty());
  }

  /** A plain setting as a string, or {@code def} when absent. */
  public String string(String key, String def) {
    Object v = values.get(key);
    if (v == null) {
      return def;
    }
    String s = unwrap(key, v).trim();
    return s.isEmpty() ? def : s;
  }

  /** A setting that may be a credential, or {@code null} when absent. */
  public Secret secret(String key) {
    Object v = values.get(key);
    if (v == null) {
      return null;
    }
    String s = unwrap(key, v);
    return s.isEmpty() ? null : Secret.of(s);
  }

  public long longValue(String key, long def) {
    Object v = values.get(key);
    if (v == null) {
      return def;
    }
    if (v instanceof Number n) {
      return n.longValue();
    }
    String s = string(key, null);
    if (s == null) {
      return def;
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("setting " + key + " must be an integer, got '" + s + "'");
    }
  }

  public int intValue(String key, int def) {
    long v = longValue(key, def);
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("setting " + key + " is out of range: " + v);
    }
    return (int) v;
  }

  public boolean bool(String key, boolean def) {
    Object v = values.get(key);
    if (v == null) {
      return def;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    String s = string(key, null);
    if (s == null) {
      return def;
    }
    if (s.equalsIgnoreCase("true")) {
      return true;
    }
    if (s.equalsIgnoreCase("false")) {
      return false;
    }
    throw new IllegalArgumentException(
        "setting " + key + " must be true or false, got '" + s + "'");
  }

  /** The holder of {@link #DELEGATED_CREDENTIALS}, or null. */
  public DelegatedCredentials delegatedCredentials() {
    return values.get(DELEGATED_CREDENTIALS) instanceof DelegatedCredentials d ? d : null;
  }

  /** These settings with one more (or another) value. */
  public StoreSettings with(String key, Object value) {
    Map<String, Object> more = new java.util.HashMap<>(values);
    more.put(key, value);
    return new StoreSettings(more);
  }

  /** The settings whose names start with {@code prefix}, with the prefix removed, as strings. */
  public Map<String, String> withPrefix(String prefix) {
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, ?> e : values.entrySet()) {
      if (e.getKey().startsWith(prefix) && e.getValue() != null) {
        out.put(e.getKey().substring(prefix.length()), unwrap(e.getKey(), e.getValue()));
      }
    }
    return out;
  }

  private static String unwrap(String key, Object v) {
    if (v instanceof String s) {
      return s;
    }
    if (v instanceof Secret s) {
      return s.value();
    }
    if (v instanceof char[] c) {
      return new String(c);
    }
    if (v instanceof Number || v instanceof Boolean) {
      return v.toString();
    }
    if (v instanceof Class<?> c) {
      return c.getName();
    }
    throw new IllegalArgumentException(
        "setting " + key + " has an unsupported type " + v.getClass().getName());
  }

  @Override
  public String toString() {
    return "StoreSettings" + new TreeMap<>(values).keySet();
  }
}
