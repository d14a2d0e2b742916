package dev.parquetconnect.sink;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The plugin's version as Connect reports it: from the jar's Maven metadata, else "dev". */
final class ConnectorVersion {
  private static final String POM_PROPERTIES =
      "/META-INF/maven/dev.parquetconnect/kafka-connect-parquet/pom.properties";

  static final String VERSION = lookUp();

  private ConnectorVersion() {}

  private static String lookUp() {
    try (InputStream in = ConnectorVersion.class.getResourceAsStream(POM_PROPERTIES)) {
      if (in != null) {
        Properties properties = new Properties();
        properties.load(in);
        String version = properties.getProperty("version");
        if (version != null && !version.isBlank()) {
          return version.trim();
        }
      }
    } catch (IOException e) {
      // fall through to the manifest
    }
    String manifest = ConnectorVersion.class.getPackage().getImplementationVersion();
    return manifest != null ? manifest : "dev";
  }
}
