package dev.parquetconnect.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Enum constants as configuration values: lower case with '.' for '_' ({@code KEY_HASH} is {@code
 * key.hash}), accepted in any case.
 */
public final class EnumValues {
  private EnumValues() {}

  /** The configuration's own spelling of a constant. */
  public static String spelling(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '.');
  }

  /** The constant a (validated) value names. */
  public static <E extends Enum<E>> E parse(Class<E> type, String value) {
    return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT).replace('.', '_'));
  }

  /** Accepts the spellings of {@code constants}, in any case. */
  public static ConfigDef.Validator validator(Enum<?>[] constants) {
    return ConfigDef.CaseInsensitiveValidString.in(spellings(constants).toArray(String[]::new));
  }

  /** Offers the spellings of {@code constants}. */
  public static ConfigDef.Recommender recommender(Enum<?>[] constants) {
    return new OfferedValues(spellings(constants));
  }

  private static List<String> spellings(Enum<?>[] constants) {
    return Arrays.stream(constants).map(EnumValues::spelling).toList();
  }
}
