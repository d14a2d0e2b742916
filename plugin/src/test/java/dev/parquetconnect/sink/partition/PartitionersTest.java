package dev.parquetconnect.sink.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.TenantPartitioner;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

final class PartitionersTest {
  static final long TS = 1_714_571_100_000L; // 2024-05-01T13:45:00Z

  static final Schema ADDRESS =
      SchemaBuilder.struct()
          .name("Address")
          .field("country", Schema.STRING_SCHEMA)
          .field("zip", Schema.OPTIONAL_INT32_SCHEMA)
          .build();
  static final Schema ORDER =
      SchemaBuilder.struct()
          .name("Order")
          .field("region", Schema.STRING_SCHEMA)
          .field("address", ADDRESS)
          .field("day", Date.SCHEMA)
          .field("at", Timestamp.SCHEMA)
          .field("amount", Decimal.schema(2))
          .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).build())
          .build();

  static SinkRecord order() {
    Struct value =
        new Struct(ORDER)
            .put("region", "eu/west")
            .put("address", new Struct(ADDRESS).put("country", "fr").put("zip", null))
            .put("day", new java.util.Date(TS - TS % 86_400_000L))
            .put("at", new java.util.Date(TS))
            .put("amount", new BigDecimal("12.50"))
            .put("tags", List.of("a"));
    return new SinkRecord(
        "orders", 3, Schema.STRING_SCHEMA, "acme", ORDER, value, 17, TS, TimestampType.CREATE_TIME);
  }

  static ParquetSinkConfig config(String... keyValues) {
    Map<String, String> props = new HashMap<>();
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, "file:///lake");
    for (int i = 0; i < keyValues.length; i += 2) {
      props.put(keyValues[i], keyValues[i + 1]);
    }
    return new ParquetSinkConfig(props);
  }

  static List<PartitionColumn> partition(ParquetSinkConfig config, SinkRecord record) {
    return Partitioners.create(config, () -> TS + 3_600_000L).partition(record);
  }

  static PartitionColumn col(String name, String value) {
    return new PartitionColumn(name, value);
  }

  @Test
  void kafkaPartitionIsTheDefault() {
    assertEquals(List.of(col("partition", "3")), partition(config(), order()));
  }

  @Test
  void fieldsOfStructsNestedAndTyped() {
    ParquetSinkConfig config =
        config(
            ParquetSinkConfig.PARTITIONER_CONFIG,
            "field",
            ParquetSinkConfig.PARTITION_FIELDS_CONFIG,
            "region, address.country, address.zip, day, at, amount");
    assertEquals(
        List.of(
            col("region", "eu/west"),
            col("country", "fr"),
            col("zip", null),
            col("day", "2024-05-01"),
            col("at", "2024-05-01T13:45:00Z"),
            col("amount", "12.50")),
        partition(config, order()));
    assertEquals(
        "region=eu%2Fwest/country=fr/zip=__HIVE_DEFAULT_PARTITION__/day=2024-05-01/"
            + "at=2024-05-01T13%3A45%3A00Z/amount=12.50",
        HivePaths.path(partition(config, order())));
  }

  @Test
  void fieldsOfSchemalessMaps() {
    ParquetSinkConfig config =
        config(
            ParquetSinkConfig.PARTITIONER_CONFIG,
            "field",
            ParquetSinkConfig.PARTITION_FIELDS_CONFIG,
            "user.country,n");
    Map<String, Object> value = new HashMap<>();
    value.put("user", Map.of("country", "de"));
    value.put("n", 42L);
    SinkRecord record = new SinkRecord("t", 0, null, null, null, value, 1);
    assertEquals(List.of(col("country", "de"), col("n", "42")), partition(config, record));
    SinkRecord tombstone = new SinkRecord("t", 0, null, null, null, null, 2);
    assertEquals(List.of(col("country", null), col("n", null)), partition(config, tombstone));
  }

  @Test
  void missingAndComplexFieldsAreRecordErrors() {
    ParquetSinkConfig missing =
        config(
            ParquetSinkConfig.PARTITIONER_CONFIG,
            "field",
            ParquetSinkConfig.PARTITION_FIELDS_CONFIG,
            "address.street");
    DataException e = assertThrows(DataException.class, () -> partition(missing, order()));
    assertTrue(
        e.getMessage().contains("'address.street'") && e.getMessage().contains("street"),
        e.getMessage());
    ParquetSinkConfig complex =
        config(
            ParquetSinkConfig.PARTITIONER_CONFIG,
            "field",
            ParquetSinkConfig.PARTITION_FIELDS_CONFIG,
            "tags");
    e = assertThrows(DataException.class, () -> partition(complex, order()));
    assertTrue(e.getMessage().contains("list"), e.getMessage());
  }

  @Test
  void timeFromTheRecordAFieldOrTheWallClock() {
    assertEquals(
        List.of(col("year", "2024"), col("month", "05"), col("day", "01"), col("hour", "13")),
        partition(config(ParquetSinkConfig.PARTITIONER_CONFIG, "time"), order()));
    assertEquals(
        List.of(col("dt", "2024-05-01"), col("hour", "15")),
        partition(
            config(
                ParquetSinkConfig.PARTITIONER_CONFIG, "time",
                ParquetSinkConfig.PATH_FORMAT_CONFIG, "'dt'=yyyy-MM-dd/'hour'=HH",
                ParquetSinkConfig.TIMEZONE_CONFIG, "Europe/Paris"),
            order()));
    assertEquals(
        List.of(col("month", "mai")),
        partition(
            config(
                ParquetSinkConfig.PARTITIONER_CONFIG, "time",
                ParquetSinkConfig.PATH_FORMAT_CONFIG, "'month'=MMMM",
                ParquetSinkConfig.LOCALE_CONFIG, "fr"),
            order()));
    ParquetSinkConfig byField =
        config(
            ParquetSinkConfig.PARTITIONER_CONFIG,
            "time",
            ParquetSinkConfig.PATH_FORMAT_CONFIG,
            "'d'=yyyy-MM-dd",
            ParquetSinkConfig.TIMESTAMP_EXTRACTOR_CONFIG,
            "field",
            ParquetSinkConfig.TIMESTAMP_FIELD_CONFIG,
            "when");
    assertEquals(
        List.of(col("d", "2023-12-31")),
        partition(
            byField,
            new SinkRecord(
                "t", 0, null, null, null, Map.of("when", "2023-12-31T23:00:00-00:30"), 0)));
    assertEquals(
        List.of(col("d", "2024-05-01")),
        partition(byField, new SinkRecord("t", 0, null, null, null, Map.of("when", TS), 0)));
    assertThrows(
        DataException.class,
        () ->
            partition(
                byField, new SinkRecord("t", 0, null, null, null, Map.of("when", "yesterday"), 0)));
    assertEquals(
        List.of(col("hour", "14")),
        partition(
            config(
                ParquetSinkConfig.PARTITIONER_CONFIG, "time",
                ParquetSinkConfig.PATH_FORMAT_CONFIG, "'hour'=HH",
                ParquetSinkConfig.TIMESTAMP_EXTRACTOR_CONFIG, "wallclock"),
            order()));
  }

  @Test
  void headersLastValueWinsMissingIsDefault() {
    ParquetSinkConfig config =
        config(
            ParquetSinkConfig.PARTITIONER_CONFIG,
            "header",
            ParquetSinkConfig.PARTITION_HEADERS_CONFIG,
            "tenant,env");
    SinkRecord record = order();
    record.headers().addString("tenant", "a").addString("tenant", "b");
    assertEquals(List.of(col("tenant", "b"), col("env", null)), partition(config, record));
  }

  @Test
  void aUsersOwnPartitionerIsConfiguredWithTheWholeConfig() {
    ParquetSinkConfig config =
        config(
            ParquetSinkConfig.PARTITIONER_CONFIG,
            TenantPartitioner.class.getName(),
            "tenant.prefix",
            "t-");
    assertEquals(List.of(col("tenant", "t-acme")), partition(config, order()));
  }
}
