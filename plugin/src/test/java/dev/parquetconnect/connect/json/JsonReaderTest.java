package dev.parquetconnect.connect.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/**
 * The reader's contract on single documents: JsonConverter's meaning where it is well defined, the
 * limits for untrusted input, and the cases where the two differ on purpose (docs/json-input.md).
 */
final class JsonReaderTest {
  private final JsonRecordDecoder schemaless = new JsonRecordDecoder(false, false);
  private final JsonRecordDecoder envelopes = new JsonRecordDecoder(true, false);

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private Object value(String json) {
    return schemaless.decode(utf8(json), "value").value();
  }

  private String error(JsonRecordDecoder decoder, byte[] json) {
    return assertThrows(DataException.class, () -> decoder.decode(json, "value")).getMessage();
  }

  private static Object converter(boolean schemas, byte[] json) {
    JsonConverter c = new JsonConverter();
    c.configure(Map.of("schemas.enable", Boolean.toString(schemas)), false);
    return c.toConnectData("t", json).value();
  }

  @Test
  void numbersMeanWhatJsonConverterMakesOfThem() {
    assertEquals(7L, value("007"));
    assertEquals(0.0, value("-0.0"));
    assertEquals(Double.POSITIVE_INFINITY, value("1e400"));
    assertEquals(-0.0, value("-1e-400"));
    assertEquals(0L, value("18446744073709551616")); // 2^64 wraps to its low 64 bits
    for (String n : List.of("0.1", "1e23", "123456789012345678.25", "4.9E-324", "-2.0E-3")) {
      assertEquals(converter(false, utf8(n)), value(n), n);
    }
  }

  @Test
  void duplicateKeysKeepTheLastValueAndTrailingBytesAreIgnored() {
    assertEquals(Map.of("a", 2L), value("{\"a\":1,\"a\":2}"));
    assertEquals(Map.of("a", 1L), value("{\"a\":1} trailing {"));
    assertEquals(1L, value("1 2"));
    assertNull(value("  "));
    assertTrue(error(schemaless, utf8("1x")).contains("at byte 1"));
  }

  @Test
  void errorsNameTheByte() {
    assertTrue(error(schemaless, utf8("{\"a\": tru}")).contains("at byte 6"));
    assertTrue(error(schemaless, utf8("{\"a\":1")).contains("at byte 6"));
    assertTrue(error(schemaless, utf8("[1.]")).contains("at byte 3"));
    assertTrue(error(schemaless, utf8("\"\\x\"")).contains("at byte 1"));
    assertTrue(error(envelopes, utf8("{\"a\":1}")).contains("\"schema\" and \"payload\""));
  }

  @Test
  void deepNestingIsRefusedNotOverflowed() {
    String deep = "[".repeat(JsonReader.MAX_DEPTH + 1) + "]".repeat(JsonReader.MAX_DEPTH + 1);
    assertTrue(error(schemaless, utf8(deep)).contains("nesting deeper than 1000"));
    String ok = "[".repeat(JsonReader.MAX_DEPTH) + "]".repeat(JsonReader.MAX_DEPTH);
    assertEquals(converter(false, utf8(ok)), value(ok));
    String million = "{\"a\":".repeat(1_000_000);
    assertTrue(error(schemaless, utf8(million)).contains("nesting"));
  }

  @Test
  void hugeNumbersAreRefused() {
    String digits = "1".repeat(JsonReader.MAX_NUMBER_LENGTH + 1);
    assertTrue(error(schemaless, utf8(digits)).contains("number longer than 1000 digits"));
    assertTrue(error(schemaless, utf8("1e99999999999")).contains("exponent"));
    assertEquals(converter(false, utf8("1" + "0".repeat(999))), value("1" + "0".repeat(999)));
  }

  @Test
  void invalidUtf8IsRefusedWhereJacksonDecodesGarbage() {
    byte[] overlong = {'"', (byte) 0xC0, (byte) 0xAF, '"'};
    byte[] surrogate = {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'};
    byte[] truncated = {'"', (byte) 0xE2, (byte) 0x82};
    assertTrue(error(schemaless, overlong).contains("invalid UTF-8"));
    assertTrue(error(schemaless, surrogate).contains("invalid UTF-8"));
    assertTrue(error(schemaless, truncated).contains("truncated UTF-8"));
    // JsonConverter lets the first two through as text of replacement-free garbage characters.
    assertTrue(converter(false, overlong) instanceof String);
    assertTrue(converter(false, surrogate) instanceof String);
  }

  @Test
  void escapedLoneSurrogatesAreKeptAsJacksonKeepsThem() {
    assertEquals("\ud800x", value("\"\\ud800x\""));
    assertEquals(converter(false, utf8("\"\\udfff\"")), value("\"\\udfff\""));
  }

  @Test
  void envelopeSchemasAreParsedOncePerDistinctBytes() {
    JsonRecordDecoder decoder = new JsonRecordDecoder(true, false);
    String schema = "{\"type\":\"struct\",\"fields\":[{\"field\":\"a\",\"type\":\"int32\"}]}";
    for (int i = 0; i < 3; i++) {
      byte[] doc = utf8("{\"schema\":" + schema + ",\"payload\":{\"a\":" + i + "}}");
      SchemaAndValue v = decoder.decode(doc, "value");
      assertEquals(converter(true, doc), v.value());
    }
    assertEquals(1, decoder.schemasKept());
    decoder.decode(
        utf8("{\"schema\":" + schema.replace(",", ", ") + ",\"payload\":{\"a\":1}}"), "value");
    assertEquals(2, decoder.schemasKept(), "other bytes, another entry");
  }

  @Test
  void rawValuesOnly() {
    String message =
        assertThrows(DataException.class, () -> schemaless.decode(Map.of(), "value")).getMessage();
    assertTrue(message.contains("ByteArrayConverter or StringConverter"), message);
    assertEquals(Map.of("a", "\u00e9"), schemaless.decode("{\"a\":\"\u00e9\"}", "value").value());
  }
}
