package dev.parquetconnect.engines;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The canonical text the engine oracles are compared in: Spark's typing of each value. */
class EngineCanonicalTest {

  @Test
  void valuesAreWrittenAsSparkTypesThem() {
    GroupNode point =
        GroupNode.of("p", OPTIONAL, List.of(PrimitiveNode.of("x", OPTIONAL, PhysicalType.INT32)));
    MessageType schema =
        new MessageType(
            "m",
            List.of(
                PrimitiveNode.of("d", OPTIONAL, PhysicalType.DOUBLE),
                PrimitiveNode.of("f", OPTIONAL, PhysicalType.FLOAT),
                PrimitiveNode.of("s", OPTIONAL, PhysicalType.BYTE_ARRAY)
                    .withLogicalType(LogicalType.STRING),
                PrimitiveNode.of("raw", OPTIONAL, PhysicalType.BYTE_ARRAY),
                PrimitiveNode.of("dec", OPTIONAL, PhysicalType.INT64)
                    .withLogicalType(new LogicalType.DecimalType(4, 18)),
                PrimitiveNode.of("day", OPTIONAL, PhysicalType.INT32)
                    .withLogicalType(LogicalType.DATE),
                PrimitiveNode.of("ts", OPTIONAL, PhysicalType.INT64)
                    .withLogicalType(new LogicalType.TimestampType(true, TimeUnit.MILLIS)),
                PrimitiveNode.of("local", OPTIONAL, PhysicalType.INT64)
                    .withLogicalType(new LogicalType.TimestampType(false, TimeUnit.MICROS)),
                point,
                NestedTypes.list(
                    "l", OPTIONAL, PrimitiveNode.of("element", OPTIONAL, PhysicalType.INT32)),
                NestedTypes.map(
                    "m",
                    OPTIONAL,
                    PrimitiveNode.of("key", REQUIRED, PhysicalType.BYTE_ARRAY)
                        .withLogicalType(LogicalType.STRING),
                    PrimitiveNode.of("value", OPTIONAL, PhysicalType.INT64))));
    Map<Object, Object> map = new LinkedHashMap<>();
    map.put("z".getBytes(StandardCharsets.UTF_8), 1L);
    map.put("a".getBytes(StandardCharsets.UTF_8), null);
    Row row =
        Row.of(
            schema.root(),
            -0.0,
            Float.NaN,
            "say \"hi\"\n".getBytes(StandardCharsets.UTF_8),
            new byte[] {0, (byte) 0xff},
            -12_345L,
            -1,
            -100_000_000_000_000L,
            1_500_000L,
            Row.of(point, 7),
            java.util.Arrays.asList(1, null),
            map);
    assertEquals(
        "{d:-0.0,f:NaN,s:\"say \\\"hi\\\"\\u000a\",raw:0x00ff,dec:-1.2345,"
            + "day:1969-12-31,ts:-1199-02-15T14:13:20Z,local:1970-01-01T00:00:01.500,"
            + "p:{x:7},l:[1,null],m:map{\"a\"=>null,\"z\"=>1}}",
        EngineCanonical.row(row, schema.root()));
  }
}
