package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.junit.jupiter.api.Test;

/**
 * Which parameters stop a projection: docs never; a decimal's scale and precision; an enum's
 * symbols (the source's must be among the target's) in each converter's spelling.
 */
class SchemaParametersTest {
  private static Schema avroEnum(String marker, List<String> symbols, String doc) {
    SchemaBuilder b = SchemaBuilder.string().name("com.example.Status").parameter(marker, "Status");
    for (int i = 0; i < symbols.size(); i++) {
      b.parameter(marker + "." + symbols.get(i), String.valueOf(i));
    }
    return b.parameter("io.confluent.connect.avro.enum.doc.Status", doc).build();
  }

  @Test
  void enumSymbolsOfTheSourceMustBeAmongTheTargets() {
    for (String marker :
        List.of(
            ConnectTypes.AVRO_ENUM, ConnectTypes.GENERALIZED_ENUM, ConnectTypes.PROTOBUF_ENUM)) {
      Schema two = avroEnum(marker, List.of("NEW", "PAID"), "old doc");
      Schema three = avroEnum(marker, List.of("NEW", "PAID", "SHIPPED"), "new doc");
      assertEquals(Set.of("NEW", "PAID"), SchemaParameters.symbols(two), marker);
      assertTrue(SchemaParameters.allowProjection(two, three), marker + ": a symbol added");
      assertFalse(SchemaParameters.allowProjection(three, two), marker + ": a symbol removed");
      assertTrue(
          SchemaParameters.allowProjection(two, avroEnum(marker, List.of("PAID", "NEW"), "x")),
          marker + ": another order (index or tag) and doc");
    }
  }

  @Test
  void anEnumAndAPlainStringAreDifferentColumns() {
    Schema status = avroEnum(ConnectTypes.AVRO_ENUM, List.of("NEW"), "doc");
    Schema plain = SchemaBuilder.string().name("com.example.Status").build();
    assertFalse(SchemaParameters.allowProjection(status, plain));
    assertFalse(SchemaParameters.allowProjection(plain, status));
  }

  @Test
  void docsAndFlagsAreNotData() {
    Schema a =
        SchemaBuilder.struct()
            .parameter("io.confluent.connect.avro.record.doc", "An order")
            .parameter("io.confluent.connect.avro.field.default", "true")
            .build();
    Schema b = SchemaBuilder.struct().parameter("connect.record.doc", "Another doc").build();
    assertTrue(SchemaParameters.allowProjection(a, b));
    assertTrue(SchemaParameters.allowProjection(b, a));
  }

  @Test
  void aDecimalsScaleAndPrecisionAreItsParquetType() {
    Schema ten = Decimal.builder(2).parameter(ConnectTypes.DECIMAL_PRECISION, "10").build();
    Schema tenWithDoc =
        Decimal.builder(2)
            .parameter(ConnectTypes.DECIMAL_PRECISION, "10")
            .parameter("io.confluent.connect.avro.field.doc.amount", "in euros")
            .build();
    Schema twelve = Decimal.builder(2).parameter(ConnectTypes.DECIMAL_PRECISION, "12").build();
    Schema defaultPrecision = Decimal.schema(2);
    Schema scale3 = Decimal.builder(3).parameter(ConnectTypes.DECIMAL_PRECISION, "10").build();
    assertTrue(SchemaParameters.allowProjection(ten, tenWithDoc));
    assertFalse(SchemaParameters.allowProjection(ten, twelve));
    assertFalse(SchemaParameters.allowProjection(twelve, ten));
    assertFalse(SchemaParameters.allowProjection(ten, defaultPrecision));
    assertFalse(SchemaParameters.allowProjection(ten, scale3));
  }
}
