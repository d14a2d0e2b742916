package dev.parquetconnect.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.source.ParquetSourceConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/** docs/configuration.md is what the ConfigDefs generate: never stale, every key listed. */
final class ConfigurationDocsTest {
  private static final Path DOC =
      Path.of(System.getProperty("repo.root", ".."), "docs/configuration.md");

  @Test
  void docsConfigurationMdIsUpToDate() throws Exception {
    String committed = Files.readString(DOC, StandardCharsets.UTF_8);
    String generated = ConfigurationDocs.render(committed);
    if (!generated.equals(committed)) {
      throw new AssertionError(
          "docs/configuration.md is stale: run bin/gen-docs (or `mvn -o -q "
              + "-pl plugin -am process-test-classes` and copy plugin/target/generated-docs/configuration.md "
              + "to docs/)\n"
              + firstDifference(committed, generated));
    }
  }

  @Test
  void everyPublicKeyOfBothConnectorsIsListed() throws Exception {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    for (ConfigDef def :
        new ConfigDef[] {ParquetSinkConfig.configDef(), ParquetSourceConfig.CONFIG_DEF}) {
      for (ConfigDef.ConfigKey key : def.configKeys().values()) {
        assertEquals(!key.internalConfig, doc.contains("| `" + key.name + "` |"), key.name);
      }
    }
  }

  @Test
  void passwordDefaultsAreHiddenAndCellsStayInTheirColumn() {
    ConfigDef def =
        new ConfigDef()
            .define(
                "secret.key",
                ConfigDef.Type.PASSWORD,
                "s3cr3t",
                ConfigDef.Importance.HIGH,
                "A | secret <value>",
                "G",
                1,
                ConfigDef.Width.SHORT,
                "Secret")
            .define(
                "plain",
                ConfigDef.Type.LIST,
                "a,b",
                ConfigDef.Importance.LOW,
                "line one\nline two",
                "G",
                2,
                ConfigDef.Width.SHORT,
                "Plain");
    String tables = ConfigurationDocs.tables(def);
    assertFalse(tables.contains("s3cr3t"), tables);
    assertTrue(tables.contains("| `secret.key` | password | [hidden] |"), tables);
    assertTrue(tables.contains("A \\| secret &lt;value&gt;"), tables);
    assertTrue(tables.contains("| `plain` | list | `a,b` |"), tables);
    assertTrue(tables.contains("line one line two"), tables);
  }

  @Test
  void aDocumentWithoutTheRegionsIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ConfigurationDocs.render("# nothing generated here\n"));
    assertTrue(e.getMessage().contains("sink"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> ConfigurationDocs.render("<!-- BEGIN GENERATED: sink -->\n"));
    assertThrows(
        IllegalArgumentException.class,
        () -> ConfigurationDocs.render("<!-- BEGIN GENERATED: nope -->\n<!-- END GENERATED -->"));
  }

  private static String firstDifference(String a, String b) {
    String[] x = a.split("\n", -1);
    String[] y = b.split("\n", -1);
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      String l = i < x.length ? x[i] : "(end of file)";
      String r = i < y.length ? y[i] : "(end of file)";
      if (!l.equals(r)) {
        return "line " + (i + 1) + ":\n  committed: " + l + "\n  generated: " + r;
      }
    }
    return "";
  }
}
