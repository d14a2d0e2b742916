package dev.parquetconnect.config;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** A Java regular expression. */
public final class RegexValidator implements ConfigDef.Validator {
  @Override
  public void ensureValid(String name, Object value) {
    if (value == null) {
      return; // a key given as null is reported by the null check (ConnectorValidation)
    }
    try {
      Pattern.compile(value.toString());
    } catch (PatternSyntaxException e) {
      throw new ConfigException(name + " is not a valid regular expression: " + e.getDescription());
    }
  }

  @Override
  public String toString() {
    return "a Java regular expression";
  }
}
