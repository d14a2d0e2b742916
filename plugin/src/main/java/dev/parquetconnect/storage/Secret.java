package dev.parquetconnect.storage;

import java.util.Objects;

/**
 * A credential value (a secret key, a customer encryption key, a truststore password). Its {@link
 * #toString()} never shows the value, so it can travel through settings maps that end up in logs.
 */
public final class Secret {
  private final String value;

  private Secret(String value) {
    this.value = Objects.requireNonNull(value, "value");
  }

  public static Secret of(String value) {
    return new Secret(value);
  }

  /** The value itself: pass it only to the client that needs it, never to a log. */
  public String value() {
    return value;
  }

  @Override
  public String toString() {
    return "[hidden]";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Secret s && s.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }
}
