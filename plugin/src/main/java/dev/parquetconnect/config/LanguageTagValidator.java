package dev.parquetconnect.config;

import java.util.Locale;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** A BCP 47 language tag (en, fr-FR) that names a locale. */
public final class LanguageTagValidator implements ConfigDef.Validator {
  @Override
  public void ensureValid(String name, Object value) {
    String tag = value == null ? "" : ((String) value).trim();
    if (tag.isEmpty() || Locale.forLanguageTag(tag).toLanguageTag().equals("und")) {
      throw new ConfigException(name, value, "not a BCP 47 language tag (en, fr-FR)");
    }
  }

  @Override
  public String toString() {
    return "a BCP 47 language tag";
  }
}
