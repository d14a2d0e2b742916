package dev.parquetconnect.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

/** The one way both connectors validate: single keys, null keys, store URL, rules between keys. */
final class ConnectorValidationTest {
  /** A connector's keys in small: a store URL, a mode, a count and a name the mode needs. */
  private static ConfigDef def() {
    ConfigDef def =
        new ConfigDef()
            .define(
                "store.url",
                Type.STRING,
                ConfigDef.NO_DEFAULT_VALUE,
                new StoreUrlValidator("file:///path"),
                Importance.HIGH,
                "The store.")
            .define("mode", Type.STRING, "plain", Importance.HIGH, "The mode.")
            .define("count", Type.INT, 1, Range.atLeast(1), Importance.LOW, "A count.")
            .define(
                "name.for.fancy",
                Type.STRING,
                "",
                Importance.LOW,
                "Fancy mode's name.",
                "G",
                1,
                Width.SHORT,
                "Name",
                VisibleWhen.equalTo("mode", "fancy"));
    StoreConfigDef.define(def);
    return def;
  }

  /** Fancy mode needs a name (moot when count is invalid); count 7 is unlucky (always). */
  private static List<ConfigProblem> rules(ConnectorValidation.Validated config) {
    List<ConfigProblem> problems = new ArrayList<>();
    if ("fancy".equals(config.parsed("mode")) && "".equals(config.parsed("name.for.fancy"))) {
      problems.add(ConfigProblem.about("name.for.fancy", "fancy mode needs a name", "count"));
    }
    if (Integer.valueOf(7).equals(config.parsed("count"))
        || config.usableProps().containsKey("unlucky")) {
      problems.add(ConfigProblem.on("count", "is unlucky"));
    }
    problems.addAll(StoreConfigDef.problems(config::parsed));
    return problems;
  }

  private static Map<String, String> props(String... keyValues) {
    Map<String, String> props = new HashMap<>();
    props.put("store.url", "file:///lake");
    for (int i = 0; i < keyValues.length; i += 2) {
      props.put(keyValues[i], keyValues[i + 1]);
    }
    return props;
  }

  private static Map<String, List<String>> errors(Map<String, String> props) {
    Config config = ConnectorValidation.validate(def(), props, ConnectorValidationTest::rules);
    return config.configValues().stream()
        .filter(v -> !v.errorMessages().isEmpty())
        .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }

  @Test
  void aRuleIsReportedOnItsKeyNamingTheKey() {
    assertEquals(
        Map.of("name.for.fancy", List.of("name.for.fancy: fancy mode needs a name")),
        errors(props("mode", "fancy")));
    assertEquals(Map.of("count", List.of("count: is unlucky")), errors(props("count", "7")));
    assertEquals(Map.of(), errors(props("mode", "fancy", "name.for.fancy", "x")));
  }

  @Test
  void aRuleInvolvingAnInvalidKeyIsLeftOutOneNamingNoKeysIsNot() {
    Map<String, List<String>> errors = errors(props("mode", "fancy", "count", "0"));
    assertEquals(List.of("count"), List.copyOf(errors.keySet()), errors.toString());
    errors = errors(props("count", "0", "unlucky", "yes"));
    assertEquals(2, errors.get("count").size(), errors.toString());
  }

  @Test
  void aNullKeyIsReportedOnceAndItsStoreRuleLeftOut() {
    Map<String, String> props = props("aws.secret.access.key", "s3cr3t");
    props.put("aws.access.key.id", null);
    props.put("mode", null);
    Map<String, List<String>> errors = errors(props);
    assertEquals(
        List.of("aws.access.key.id is null; leave it out for its default"),
        errors.get("aws.access.key.id"));
    assertEquals(List.of("mode is null; leave it out for its default"), errors.get("mode"));
    assertFalse(errors.toString().contains("s3cr3t"));
  }

  @Test
  void aStoreUrlErrorIsReportedOnceThoughEveryStoreKeyRevalidatesIt() {
    assertEquals(
        Map.of(
            "store.url",
            List.of(
                "store.url must not carry credentials (nor any "
                    + "'@'); put them in the store settings")),
        errors(props("store.url", "s3://K:S@b/p")));
    assertEquals(
        List.of("store.url"), List.copyOf(errors(props("store.url", "nope://h/x")).keySet()));
  }

  @Test
  void theConstructorCheckRefusesWhatValidateRefuses() {
    Map<String, String> keyWithoutSecret = props("aws.access.key.id", "AKIA");
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () ->
                ConnectorValidation.requireValid(
                    def(), keyWithoutSecret, () -> StoreConfigDef.problems(keyWithoutSecret::get)));
    assertEquals("aws.access.key.id and aws.secret.access.key go together", e.getMessage());
    e =
        assertThrows(
            ConfigException.class,
            () ->
                ConnectorValidation.requireValid(
                    def(),
                    props("store.url", "nope://h/x"),
                    () -> List.of(ConfigProblem.on("count", "is odd"))));
    assertTrue(
        e.getMessage()
            .startsWith(
                "count: is odd; store.url: Hadoop has no file system " + "for the scheme 'nope'"),
        e.getMessage());
    Map<String, String> nulls = props();
    nulls.put("count", null);
    e =
        assertThrows(
            ConfigException.class,
            () ->
                ConnectorValidation.requireValid(
                    def(),
                    nulls,
                    () -> {
                      throw new AssertionError("rules run only without null keys");
                    }));
    assertEquals("count is null; leave it out for its default", e.getMessage());
    ConnectorValidation.requireValid(def(), props(), List::of);
  }

  @Test
  void visibilityFollowsTheModeAndTheStoreScheme() {
    Map<String, ConfigValue> values =
        ConnectorValidation.validate(
                def(),
                props("store.url", "s3://b/p", "mode", "FANCY", "name.for.fancy", "n"),
                ConnectorValidationTest::rules)
            .configValues()
            .stream()
            .collect(Collectors.toMap(ConfigValue::name, v -> v));
    assertTrue(values.get("name.for.fancy").visible());
    assertTrue(values.get("s3.region").visible());
    assertFalse(values.get("hdfs.user").visible());
    values =
        ConnectorValidation.validate(
                def(), props("store.url", "hdfs://nn/p"), ConnectorValidationTest::rules)
            .configValues()
            .stream()
            .collect(Collectors.toMap(ConfigValue::name, v -> v));
    assertFalse(values.get("name.for.fancy").visible());
    assertFalse(values.get("s3.region").visible());
    assertTrue(values.get("hdfs.user").visible());
  }

  @Test
  void offeredValuesSurviveConfigDefNarrowingThemInPlace() {
    OfferedValues offered = new OfferedValues(List.of("a", "b"));
    List<Object> first = offered.validValues("k", Map.of());
    first.removeIf(v -> v.equals("a"));
    assertEquals(List.of("a", "b"), offered.validValues("k", Map.of()));
    assertEquals(
        List.of("round.ish", "square"),
        EnumValues.recommender(Shape.values()).validValues("k", Map.of()));
    assertEquals(Shape.ROUND_ISH, EnumValues.parse(Shape.class, " Round.Ish "));
    assertEquals("round.ish", EnumValues.spelling(Shape.ROUND_ISH));
  }

  private enum Shape {
    ROUND_ISH,
    SQUARE
  }
}
