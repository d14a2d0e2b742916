package dev.parquetconnect.config;

import java.time.DateTimeException;
import java.time.ZoneId;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** A {@code java.time} zone id (UTC, Europe/Paris, +02:00). */
public final class ZoneIdValidator implements ConfigDef.Validator {
  @Override
  public void ensureValid(String name, Object value) {
    try {
      ZoneId.of(((String) value).trim());
    } catch (DateTimeException | NullPointerException e) {
      throw new ConfigException(name, value, "not a time zone id (UTC, Europe/Paris, +02:00)");
    }
  }

  @Override
  public String toString() {
    return "a java.time zone id";
  }
}
