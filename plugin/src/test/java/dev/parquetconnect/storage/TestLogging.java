package dev.parquetconnect.storage;

/** Keeps the in-process servers' INFO chatter out of the test output (slf4j-simple levels). */
final class TestLogging {
  private TestLogging() {}

  static void quietServers() {
    for (String logger :
        new String[] {
          "org.apache.hadoop",
          "org.eclipse.jetty",
          "org.gaul",
          "org.jclouds",
          "jclouds",
          "org.apache.http",
          "software.amazon.awssdk",
          "BlockStateChange",
          "org.apache.hadoop.shaded",
          "SecurityLogger"
        }) {
      System.setProperty("org.slf4j.simpleLogger.log." + logger, "warn");
    }
  }
}
