package dev.parquetconnect.it;

import java.util.List;
import java.util.Map;

/**
 * The records the crash ITs produce: a small struct of an id and a region with its JSON schema (its
 * converting costs little), record {@code i} in partition {@code i % partitions}, its timestamp
 * growing with {@code i}.
 */
public final class CrashRecords {
  private CrashRecords() {}

  public static JsonRecord record(long i, int partitions, String region) {
    Map<String, Object> schema =
        Map.of(
            "type",
            "struct",
            "name",
            "order",
            "fields",
            List.of(
                Map.of("field", "id", "type", "int64", "optional", false),
                Map.of("field", "region", "type", "string", "optional", false)));
    Map<String, Object> payload = Map.of("id", i, "region", region);
    return JsonRecord.of(null, Json.write(Map.of("schema", schema, "payload", payload)))
        .withPartition((int) (i % partitions))
        .withTimestamp(1_700_000_000_000L + i);
  }
}
