package dev.parquetconnect.format.write;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * This project's version, for the footer's created_by: from the Maven metadata the jar carries,
 * else the jar manifest, else {@code "dev"} (classes run from a build directory have neither). The
 * connectors report the same version to Connect.
 */
public final class ProjectVersion {
  private static final String POM_PROPERTIES =
      "/META-INF/maven/dev.parquetconnect/kafka-connect-parquet/pom.properties";

  public static final String VERSION = lookUp();

  private ProjectVersion() {}

  private static String lookUp() {
    try (InputStream in = ProjectVersion.class.getResourceAsStream(POM_PROPERTIES)) {
      if (in != null) {
        Properties properties = new Properties();
        properties.load(in);
        String version = properties.getProperty("version");
        if (version != null && !version.isBlank()) {
          return version.trim();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + POM_PROPERTIES, e);
    }
    String manifest = ProjectVersion.class.getPackage().getImplementationVersion();
    return manifest != null ? manifest : "dev";
  }
}
