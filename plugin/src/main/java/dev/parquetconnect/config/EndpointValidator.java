package dev.parquetconnect.config;

import java.net.URI;
import java.net.URISyntaxException;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * An http(s) endpoint URL without credentials, or nothing (blank: the default). The S3 store
 * refuses anything else only when a task builds its client.
 */
public final class EndpointValidator implements ConfigDef.Validator {
  @Override
  public void ensureValid(String name, Object value) {
    String text = value == null ? "" : value.toString().trim();
    if (text.isEmpty()) {
      return;
    }
    String shown = text.contains("@") ? "(value not shown)" : "'" + text + "'";
    if (text.contains("@")) {
      throw new ConfigException(name + " must not carry credentials (nor any '@')");
    }
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw new ConfigException(name + " " + shown + " is not a valid URL: " + e.getReason());
    }
    if (uri.getScheme() == null
        || !(uri.getScheme().equalsIgnoreCase("http") || uri.getScheme().equalsIgnoreCase("https"))
        || uri.getHost() == null) {
      throw new ConfigException(name + " " + shown + " is not http(s)://host[:port]");
    }
  }

  @Override
  public String toString() {
    return "http(s)://host[:port], or empty";
  }
}
