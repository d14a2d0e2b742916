package dev.parquetconnect.connect.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/**
 * The envelope read from the end of the previous record's prefix, its payload by schema: every
 * record below follows a record of the same prefix, so the decoder takes the directed path or
 * leaves it, and must give what a fresh decoder (which reads the whole record the exact way) and
 * JsonConverter give: the same schema and value, or the same error.
 */
final class EnvelopePrefixTest {
  private static final String SCHEMA =
      "{\"type\":\"struct\",\"fields\":["
          + "{\"field\":\"id\",\"type\":\"int64\"},"
          + "{\"field\":\"name\",\"type\":\"string\",\"optional\":true},"
          + "{\"field\":\"score\",\"type\":\"double\",\"optional\":true,\"default\":1.5},"
          + "{\"field\":\"tags\",\"type\":\"array\",\"items\":{\"type\":\"string\"},"
          + "\"optional\":true},"
          + "{\"field\":\"address\",\"type\":\"struct\",\"optional\":true,\"fields\":["
          + "{\"field\":\"city\",\"type\":\"string\"},{\"field\":\"zip\",\"type\":\"int32\"}]},"
          + "{\"field\":\"ts\",\"type\":\"int64\",\"name\":\"org.apache.kafka.connect.data"
          + ".Timestamp\",\"optional\":true},"
          + "{\"field\":\"attrs\",\"type\":\"map\",\"keys\":{\"type\":\"string\"},"
          + "\"values\":{\"type\":\"int32\"},\"optional\":true},"
          + "{\"field\":\"note\",\"type\":\"string\",\"optional\":false,\"default\":\"-\"},"
          + "{\"field\":\"code\",\"type\":\"string\"}],"
          + "\"optional\":false,\"name\":\"orders.Order\"}";

  private static final String PREFIX = "{\"schema\":" + SCHEMA + ",\"payload\":";

  private static final String PRIMER =
      PREFIX
          + "{\"id\":1,\"name\":\"a\",\"score\":2.0,\"tags\":[\"x\"],"
          + "\"address\":{\"city\":\"Z\u00fcrich\",\"zip\":8000},\"ts\":1700000000000,"
          + "\"attrs\":{\"a\":1},\"note\":\"n\",\"code\":\"c\"}}";

  /** Payloads after the shared prefix: the common shape, then every way of leaving it. */
  private static final List<String> PAYLOADS =
      List.of(
          "{\"id\":2,\"name\":\"b\",\"score\":3.25,\"tags\":[],\"address\":null,\"ts\":5,"
              + "\"attrs\":{\"x\":2},\"note\":\"m\",\"code\":\"d\"}}",
          "{\"id\":3,\"code\":\"c\"}}", // absent fields: defaults and nulls
          "{\"id\":3,\"note\":null,\"code\":\"c\"}}", // null takes the default
          "{\"id\":3,\"code\":7}}", // a number where a required string is declared
          "{\"id\":3,\"code\":\"c\",\"attrs\":{\"a\":1,\"b\":null}}}", // a null map value
          "{\"id\":3,\"code\":\"c\",\"attrs\":[[\"a\",1]]}}", // a map as pairs
          "{\"id\":3,\"code\":\"c\",\"tags\":{\"k\":null}}}", // object as array, null
          "{\"id\":3,\"code\":\"c\",\"address\":{\"city\":null,\"zip\":1}}}",
          "{}}", // a required field absent: an error
          "{\"id\":null}}", // a required field null: an error
          "{\"name\":\"n\",\"id\":4}}", // members out of the schema's order
          "{\"id\":5,\"id\":6}}", // a repeated key: the last wins
          "{\"id\":7,\"extra\":{\"deep\":[1,2,3]}}}", // a key the schema does not have
          "{\"\\u0069d\":8}}", // an escaped key
          "{\"id\":\"text\"}}", // text where int64 is declared: 0
          "{\"id\":9,\"tags\":{\"k\":\"v\"}}}", // an object where an array is declared
          "{\"id\":10,\"address\":{\"city\":\"c\"}}}", // a nested required field absent
          "{\"id\":11,\"ts\":1.5}}", // a Timestamp that is not integral
          "{\"id\":99999999999999999999999}}", // beyond 64 bits
          "{\"id\":12,\"tags\":[\"a\",null]}}", // a null element of required strings
          "{\"id\":13}, \"payload\":{\"id\":14}}", // the payload repeated
          "{\"id\":15}, \"schema\":null}", // a second schema after the payload
          "{\"id\":16}, \"other\":1}", // a third member
          "{\"id\":17}", // truncated after the payload
          "{\"id\":18,}}", // a trailing comma
          "{\"id\":19 \"name\":\"x\"}}", // a missing comma
          "[1,2]}", // an array where the struct is declared
          "null}", // a null payload under a required schema
          "{\"id\":20}} trailing", // bytes after the envelope: ignored
          "{\"id\":21,\"name\":\"\\ud800\"}}", // an escaped lone surrogate
          "{\"id\":22,\"name\":\"\u00e9\u4e2d\ud83d\ude00\"}}", // non-ASCII text
          "  {\"id\" : 23 , \"score\" : -0.0 }  }"); // white space everywhere

  @Test
  void recordsAfterAKnownPrefixMeanWhatTheyMeanFromScratch() {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of("schemas.enable", "true"), false);
    JsonRecordDecoder primed = new JsonRecordDecoder(true, false);
    for (String payload : PAYLOADS) {
      byte[] primer = PRIMER.getBytes(StandardCharsets.UTF_8);
      byte[] doc = (PREFIX + payload).getBytes(StandardCharsets.UTF_8);
      assertNotNull(primed.decode(primer, "value"));
      Outcome fast = Outcome.of(() -> primed.decode(doc, "value"));
      Outcome fresh = Outcome.of(() -> new JsonRecordDecoder(true, false).decode(doc, "value"));
      String what = PREFIX + payload;
      assertEquals(fresh.error, fast.error, "error of " + what);
      if (fresh.error == null) {
        JsonInputDifferentialTest.assertSame(fresh.value, fast.value, what);
        if (fast.value.value() instanceof Struct struct) {
          struct.validate(); // values stored without Struct.put's validation are still valid
        }
      }
      Outcome converted = Outcome.of(() -> converter.toConnectData("t", doc));
      if ((converted.error == null) != (fast.error == null)) {
        fail("JsonConverter " + converted.error + " / ours " + fast.error + " for " + what);
      }
      if (converted.error == null) {
        JsonInputDifferentialTest.assertSame(converted.value, fast.value, what);
      }
    }
  }

  @Test
  void theCommonShapeIsReadByItsSchema() {
    JsonRecordDecoder decoder = new JsonRecordDecoder(true, false);
    decoder.decode(PRIMER.getBytes(StandardCharsets.UTF_8), "value");
    decoder.decode((PREFIX + PAYLOADS.get(0)).getBytes(StandardCharsets.UTF_8), "value");
    decoder.decode((PREFIX + PAYLOADS.get(1)).getBytes(StandardCharsets.UTF_8), "value");
    decoder.decode((PREFIX + PAYLOADS.get(2)).getBytes(StandardCharsets.UTF_8), "value");
    assertEquals(3, decoder.directRecords());
    assertEquals(1, decoder.schemasKept());
  }

  private static final String STAGED_PREFIX =
      "{\"schema\":{\"type\":\"struct\",\"fields\":["
          + "{\"field\":\"id\",\"type\":\"int64\"},"
          + "{\"field\":\"name\",\"type\":\"string\",\"optional\":true},"
          + "{\"field\":\"score\",\"type\":\"double\",\"optional\":true},"
          + "{\"field\":\"qty\",\"type\":\"int32\",\"optional\":true},"
          + "{\"field\":\"ok\",\"type\":\"boolean\",\"optional\":true},"
          + "{\"field\":\"ts\",\"type\":\"int64\",\"name\":\"org.apache.kafka.connect.data"
          + ".Timestamp\",\"optional\":true},"
          + "{\"field\":\"address\",\"type\":\"struct\",\"optional\":true,\"fields\":["
          + "{\"field\":\"city\",\"type\":\"string\"},"
          + "{\"field\":\"geo\",\"type\":\"struct\",\"optional\":true,\"fields\":["
          + "{\"field\":\"lat\",\"type\":\"double\"}]}]},"
          + "{\"field\":\"code\",\"type\":\"string\"}],"
          + "\"optional\":false,\"name\":\"orders.Staged\"},\"payload\":";

  private static final String STAGED_PRIMER =
      STAGED_PREFIX
          + "{\"id\":1,\"name\":\"a\",\"score\":2.5,\"qty\":3,\"ok\":true,\"ts\":1700000000000,"
          + "\"address\":{\"city\":\"Z\u00fcrich\",\"geo\":{\"lat\":47.37}},\"code\":\"c\"}}";

  /**
   * Payloads after a stageable schema's prefix, each with whether the row takes it: the common
   * shape at its edges, then every way of leaving it part way through the record.
   */
  private static final Map<String, Boolean> STAGED_PAYLOADS = stagedPayloads();

  private static Map<String, Boolean> stagedPayloads() {
    Map<String, Boolean> p = new java.util.LinkedHashMap<>();
    p.put(
        "{\"id\":2,\"name\":\"b\",\"score\":-3.25,\"qty\":-7,\"ok\":false,\"ts\":-5,"
            + "\"address\":{\"city\":\"\u00e9\u4e2d\ud83d\ude00\",\"geo\":null},\"code\":\"d\"}}",
        true);
    p.put("{\"id\":3,\"code\":\"c\"}}", true); // absent optional fields, a null struct
    p.put("{\"id\":3,\"address\":{\"city\":\"x\"},\"code\":\"c\"}}", true); // nested absent
    p.put("{\"id\":3,\"address\":null,\"code\":null}}", false); // a required null: error
    p.put("{\"id\":-999999999999999999,\"qty\":2147483648,\"code\":\"\"}}", true); // int wraps
    p.put("{\"id\":9223372036854775807,\"code\":\"c\"}}", false); // 19 digits: Struct path
    p.put("{\"id\":4,\"score\":0.1,\"code\":\"c\"}}", true);
    p.put("{\"id\":4,\"score\":1e300,\"code\":\"c\"}}", false); // BigDecimal's double
    p.put("{\"id\":4,\"score\":-0.0,\"code\":\"c\"}}", false); // zero: BigDecimal's
    p.put("{\"id\":4,\"score\":12345678901234567,\"code\":\"c\"}}", true); // long to double
    p.put("{\"id\":4,\"score\":0.12345678901234567,\"code\":\"c\"}}", false);
    p.put("{\"id\":4,\"qty\":1.0,\"code\":\"c\"}}", false); // a fraction where int32
    p.put("{\"id\":4,\"ts\":1.5,\"code\":\"c\"}}", false); // not integral: error
    p.put("{\"id\":4,\"ok\":1,\"code\":\"c\"}}", false); // coerced: Struct path
    p.put("{\"id\":\"4\",\"code\":\"c\"}}", false); // text where int64: coerced to 0
    p.put("{\"id\":5,\"name\":\"tab\\there \\\"q\\\" \\u00e9 \\ud800\",\"code\":\"c\"}}", true);
    p.put("{\"id\":5,\"name\":\"bad \\x escape\",\"code\":\"c\"}}", false); // error
    p.put("{\"id\":6,\"code\":\"c\",\"name\":\"n\"}}", false); // out of order
    p.put("{\"id\":6,\"id\":7,\"code\":\"c\"}}", false); // repeated: the last wins
    p.put("{\"id\":6,\"extra\":1,\"code\":\"c\"}}", false); // unknown key
    p.put("{\"id\":6,\"address\":{\"city\":\"x\",\"geo\":{\"lat\":1}},\"code\":\"c\"", false);
    p.put("{\"id\":6,\"address\":{\"city\":\"x\",\"geo\":{\"lat\":}},\"code\":\"c\"}}", false);
    p.put("{\"id\":6,\"name\":\"cut", false); // truncated in a string
    p.put("{\"id\":6,\"code\":\"c\"}, \"extra\":1}", false); // a member after the payload
    p.put("{\"id\":6,\"code\":\"c\"}} trailing", true); // bytes after the envelope: ignored
    p.put(" { \"id\" : 7 ,\n \"code\" : \"c\" } }", true); // white space
    p.put("{\"id\":8,\"name\":\"\u00ff\",\"code\":\"c\"}}", true);
    return p;
  }

  /**
   * Envelopes of a schema the staged path takes: where the row takes a record, its values are the
   * Struct's a fresh decoder gives, leaf by leaf; where it does not, the decoder's own reading (the
   * same as from scratch, or the same error) is what the sink gets. Each follows a record that left
   * the path, so a row is never a leftover of the record before.
   */
  @Test
  void stagedRowsHoldTheStructsValuesOrLeaveTheRecordToThem() {
    JsonRecordDecoder primed = new JsonRecordDecoder(true, false);
    byte[] primer = STAGED_PRIMER.getBytes(StandardCharsets.UTF_8);
    byte[] leaving =
        (STAGED_PREFIX + "{\"id\":\"x\",\"code\":7}}").getBytes(StandardCharsets.UTF_8);
    for (Map.Entry<String, Boolean> e : STAGED_PAYLOADS.entrySet()) {
      byte[] doc = (STAGED_PREFIX + e.getKey()).getBytes(StandardCharsets.UTF_8);
      String what = e.getKey();
      assertNotNull(primed.decode(primer, "value"));
      assertEquals(null, primed.stage(leaving), "a coerced record leaves the path");
      dev.parquetconnect.connect.StagedRow row = primed.stage(doc);
      assertEquals(e.getValue(), row != null, "staged: " + what);
      Outcome fresh = Outcome.of(() -> new JsonRecordDecoder(true, false).decode(doc, "value"));
      if (row == null) {
        Outcome decoded = Outcome.of(() -> primed.decode(doc, "value"));
        assertEquals(fresh.error, decoded.error, "error of " + what);
        continue;
      }
      assertEquals(null, fresh.error, what);
      java.util.List<Object> leaves = new java.util.ArrayList<>();
      leaves((Struct) fresh.value.value(), fresh.value.schema(), leaves);
      assertEquals(leaves.size(), row.leafCount(), what);
      for (int i = 0; i < leaves.size(); i++) {
        assertEquals(leaves.get(i), row.value(i), what + " leaf " + i);
      }
    }
  }

  private static final String DECIMAL = "\"name\":\"org.apache.kafka.connect.data.Decimal\"";

  /** A schema of every leaf type a row stages, with defaults, optional and nested fields. */
  private static final String TYPED_PREFIX =
      "{\"schema\":{\"type\":\"struct\",\"fields\":["
          + "{\"field\":\"i8\",\"type\":\"int8\",\"optional\":true},"
          + "{\"field\":\"i16\",\"type\":\"int16\",\"optional\":true},"
          + "{\"field\":\"f32\",\"type\":\"float\",\"optional\":true},"
          + "{\"field\":\"raw\",\"type\":\"bytes\",\"optional\":true},"
          + "{\"field\":\"amount\",\"type\":\"bytes\","
          + DECIMAL
          + ",\"parameters\":{\"scale\":\"2\"},\"optional\":true},"
          + "{\"field\":\"small\",\"type\":\"bytes\","
          + DECIMAL
          + ",\"parameters\":{\"scale\":\"3\",\"connect.decimal.precision\":\"9\"},"
          + "\"optional\":true},"
          + "{\"field\":\"day\",\"type\":\"int32\","
          + "\"name\":\"org.apache.kafka.connect.data.Date\",\"optional\":true},"
          + "{\"field\":\"tod\",\"type\":\"int32\","
          + "\"name\":\"org.apache.kafka.connect.data.Time\",\"optional\":true},"
          + "{\"field\":\"ts\",\"type\":\"int64\","
          + "\"name\":\"org.apache.kafka.connect.data.Timestamp\",\"optional\":true},"
          + "{\"field\":\"qty\",\"type\":\"int16\",\"default\":7},"
          + "{\"field\":\"label\",\"type\":\"string\",\"optional\":true,\"default\":\"none\"},"
          + "{\"field\":\"fee\",\"type\":\"bytes\","
          + DECIMAL
          + ",\"parameters\":{\"scale\":\"2\"},\"default\":\"AGQ=\"},"
          + "{\"field\":\"blob\",\"type\":\"bytes\",\"optional\":true,\"default\":\"AQI=\"},"
          + "{\"field\":\"since\",\"type\":\"int32\","
          + "\"name\":\"org.apache.kafka.connect.data.Date\",\"default\":19000},"
          + "{\"field\":\"ratio\",\"type\":\"float\",\"default\":0.5},"
          + "{\"field\":\"inner\",\"type\":\"struct\",\"optional\":true,\"fields\":["
          + "{\"field\":\"f\",\"type\":\"float\"},"
          + "{\"field\":\"tag\",\"type\":\"bytes\",\"optional\":true}]},"
          + "{\"field\":\"tags\",\"type\":\"array\",\"items\":{\"type\":\"string\"},"
          + "\"optional\":true},"
          + "{\"field\":\"sizes\",\"type\":\"array\",\"items\":{\"type\":\"int16\","
          + "\"optional\":true},\"optional\":true},"
          + "{\"field\":\"prices\",\"type\":\"array\",\"items\":{\"type\":\"bytes\","
          + DECIMAL
          + ",\"parameters\":{\"scale\":\"2\"}},\"optional\":true},"
          + "{\"field\":\"code\",\"type\":\"string\"}],"
          + "\"optional\":false,\"name\":\"orders.Typed\"},\"payload\":";

  private static final String TYPED_PRIMER =
      TYPED_PREFIX
          + "{\"i8\":1,\"i16\":2,\"f32\":0.5,\"raw\":\"AQID\",\"amount\":\"AQ==\",\"small\":1,"
          + "\"day\":1,\"tod\":1,\"ts\":1,\"qty\":1,\"label\":\"l\",\"fee\":\"AQ==\",\"blob\":\"AA==\","
          + "\"since\":1,\"ratio\":1.5,\"inner\":{\"f\":1,\"tag\":\"AA==\"},\"code\":\"c\"}}";

  /**
   * Payloads of every staged type, each with whether the row takes it: values at the types' edges,
   * defaults, and the values each type leaves to the Struct path (its coercions and its errors).
   */
  private static final Map<String, Boolean> TYPED_PAYLOADS = typedPayloads();

  private static Map<String, Boolean> typedPayloads() {
    Map<String, Boolean> p = new java.util.LinkedHashMap<>();
    p.put(
        "{\"i8\":-5,\"i16\":300,\"f32\":1.5,\"raw\":\"AQID\",\"amount\":\"AQ==\",\"small\":12345,"
            + "\"day\":19000,\"tod\":3600000,\"ts\":1700000000000,\"qty\":1,\"label\":\"x\","
            + "\"fee\":\"Ayk=\",\"blob\":\"\",\"since\":1,\"ratio\":2.25,"
            + "\"inner\":{\"f\":0.25,\"tag\":\"/w==\"},\"code\":\"c\"}}",
        true);
    p.put("{\"code\":\"c\"}}", true); // every default, every optional null
    p.put("{\"qty\":null,\"label\":null,\"fee\":null,\"blob\":null,\"code\":\"c\"}}", true);
    p.put("{\"i8\":300,\"i16\":70000,\"code\":\"c\"}}", true); // wrap as JsonConverter's casts
    p.put("{\"i8\":-129,\"i16\":-32769,\"code\":\"c\"}}", true);
    p.put("{\"i8\":127,\"i16\":-32768,\"code\":\"c\"}}", true);
    p.put("{\"i8\":1.5,\"code\":\"c\"}}", false); // a fraction where int8
    p.put("{\"i16\":\"5\",\"code\":\"c\"}}", false); // text: coerced to 0
    p.put("{\"i8\":99999999999999999999,\"code\":\"c\"}}", false); // beyond 18 digits
    p.put("{\"f32\":0.1,\"code\":\"c\"}}", true);
    p.put("{\"f32\":-0.0,\"code\":\"c\"}}", true);
    p.put("{\"f32\":16777217,\"code\":\"c\"}}", true); // an integer's nearest float
    p.put("{\"f32\":1.5e3,\"code\":\"c\"}}", true);
    p.put("{\"f32\":4194303.5,\"code\":\"c\"}}", false); // 2^22 digits: BigDecimal's parse
    p.put("{\"f32\":3.4028235E38,\"code\":\"c\"}}", false);
    p.put("{\"f32\":1e-45,\"code\":\"c\"}}", false);
    p.put("{\"f32\":true,\"code\":\"c\"}}", false); // coerced to 0
    p.put("{\"raw\":\"  AQID  \",\"code\":\"c\"}}", true); // white space at both ends
    p.put("{\"raw\":\"AQID AQ==AQID\",\"code\":\"c\"}}", true); // between groups, after padding
    p.put("{\"raw\":\"AQ\",\"code\":\"c\"}}", false); // no padding: an error
    p.put("{\"raw\":\"A QID\",\"code\":\"c\"}}", false); // inside a group: an error
    p.put("{\"raw\":\"AQ\\u003d=\",\"code\":\"c\"}}", false); // escaped: Struct path
    p.put("{\"raw\":\"\u00e9AAA\",\"code\":\"c\"}}", false); // not base64: an error
    p.put("{\"raw\":5,\"code\":\"c\"}}", false); // a number: coerced to null
    p.put("{\"amount\":\"/w==\",\"small\":-1.5,\"code\":\"c\"}}", true);
    p.put("{\"amount\":\"\",\"code\":\"c\"}}", false); // no bytes: an error
    p.put("{\"amount\":\"AAAAAAAAAAAAAAAB\",\"code\":\"c\"}}", true); // 12 bytes, sign-extended
    p.put("{\"amount\":\"//////////////////8=\",\"code\":\"c\"}}", true); // 14 bytes of -1
    p.put("{\"amount\":\"gAAAAAAAAAAAAAAA\",\"code\":\"c\"}}", false); // beyond 64 bits
    p.put("{\"amount\":\"gAAAAAAAAAA=\",\"code\":\"c\"}}", true); // Long.MIN_VALUE
    p.put("{\"amount\":12.34,\"small\":1e2,\"code\":\"c\"}}", true); // numeric, exponent
    p.put("{\"amount\":12.345,\"small\":0.000,\"code\":\"c\"}}", true); // the writer's check
    p.put("{\"amount\":-999999999999999999,\"code\":\"c\"}}", true);
    p.put("{\"amount\":1234567890123456789,\"code\":\"c\"}}", false); // 19 digits
    p.put("{\"amount\":1e-2147483648,\"code\":\"c\"}}", false); // a scale beyond int
    p.put("{\"amount\":true,\"code\":\"c\"}}", false); // an error
    p.put("{\"day\":-1,\"tod\":86399999,\"code\":\"c\"}}", true);
    p.put("{\"day\":2147483648,\"code\":\"c\"}}", false); // not an int: an error
    p.put("{\"day\":1.0,\"code\":\"c\"}}", false);
    p.put("{\"tod\":86400000,\"code\":\"c\"}}", false); // Connect's, not the column's
    p.put("{\"tod\":-1,\"code\":\"c\"}}", false); // an error
    p.put("{\"ts\":-9223372036854775,\"code\":\"c\"}}", true);
    p.put("{\"inner\":{\"f\":2},\"code\":\"c\"}}", true);
    p.put("{\"inner\":{\"tag\":\"AA==\"},\"code\":\"c\"}}", false); // required absent: error
    p.put("{\"qty\":\"5\",\"code\":\"c\"}}", false); // coerced to 0
    p.put("{\"since\":null,\"ratio\":null,\"code\":\"c\"}}", true); // defaults
    p.put(
        "{\"tags\":[\"a\",\"\u00e9\",\"\"],\"sizes\":[1,null,70000],\"prices\":[\"AQ==\",1.5],"
            + "\"code\":\"c\"}}",
        true); // arrays: values, a null element, wraps, both decimal forms
    p.put("{\"tags\":[],\"sizes\":[],\"prices\":[],\"code\":\"c\"}}", true); // empty
    p.put("{\"tags\":null,\"sizes\":[ 2 , 3 ],\"code\":\"c\"}}", true);
    p.put("{\"tags\":[\"a\\tb\",\"c\"],\"code\":\"c\"}}", true); // an escaped element
    p.put("{\"sizes\":[],\"tags\":[\"x\"],\"code\":\"c\"}}", false); // out of order
    p.put("{\"tags\":[null],\"sizes\":[1],\"code\":\"c\"}}", false); // a required null
    p.put("{\"tags\":{\"k\":\"v\"},\"sizes\":[1],\"code\":\"c\"}}", false); // an object
    p.put("{\"tags\":\"x\",\"sizes\":[1],\"code\":\"c\"}}", false); // coerced: empty
    p.put("{\"sizes\":[1.5],\"code\":\"c\"}}", false); // a fraction where int16
    p.put("{\"prices\":[\"\"],\"code\":\"c\"}}", false); // no bytes: an error
    p.put("{\"tags\":[\"a\",],\"code\":\"c\"}}", false); // a trailing comma
    p.put("{\"tags\":[\"a\" \"b\"],\"code\":\"c\"}}", false); // a missing comma
    p.put("{\"tags\":[\"a\"", false); // truncated
    return p;
  }

  /**
   * Every staged type, per type at its edges: where the row takes a record, each leaf holds what
   * the Struct of a fresh decoder and of JsonConverter holds (bytes by content, floats bit for bit,
   * decimals with their scale, defaults); where it does not, the decoder's own reading gives
   * JsonConverter's meaning or error.
   */
  @Test
  void stagedRowsOfEveryTypeHoldTheStructsValues() {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of("schemas.enable", "true"), false);
    JsonRecordDecoder primed = new JsonRecordDecoder(true, false);
    byte[] primer = TYPED_PRIMER.getBytes(StandardCharsets.UTF_8);
    byte[] leaving = (TYPED_PREFIX + "{\"code\":7}}").getBytes(StandardCharsets.UTF_8);
    int staged = 0;
    for (Map.Entry<String, Boolean> e : TYPED_PAYLOADS.entrySet()) {
      byte[] doc = (TYPED_PREFIX + e.getKey()).getBytes(StandardCharsets.UTF_8);
      String what = e.getKey();
      assertNotNull(primed.decode(primer, "value"));
      assertEquals(null, primed.stage(leaving), "a coerced record leaves the path");
      dev.parquetconnect.connect.StagedRow row = primed.stage(doc);
      assertEquals(e.getValue(), row != null, "staged: " + what);
      Outcome fresh = Outcome.of(() -> new JsonRecordDecoder(true, false).decode(doc, "value"));
      Outcome converted = Outcome.of(() -> converter.toConnectData("t", doc));
      assertEquals(converted.error == null, fresh.error == null, what);
      if (row == null) {
        Outcome decoded = Outcome.of(() -> primed.decode(doc, "value"));
        assertEquals(fresh.error, decoded.error, "error of " + what);
        continue;
      }
      staged++;
      assertEquals(null, fresh.error, what);
      List<Object> leaves = new java.util.ArrayList<>();
      leaves((Struct) fresh.value.value(), fresh.value.schema(), leaves);
      List<Object> convertedLeaves = new java.util.ArrayList<>();
      leaves((Struct) converted.value.value(), converted.value.schema(), convertedLeaves);
      assertEquals(leaves.size(), row.leafCount(), what);
      for (int i = 0; i < leaves.size(); i++) {
        Object value = row.value(i);
        if (!JsonInputDifferentialTest.deepEquals(leaves.get(i), value)
            || !JsonInputDifferentialTest.deepEquals(convertedLeaves.get(i), value)) {
          fail(what + " leaf " + i + ": " + leaves.get(i) + " / " + value);
        }
      }
    }
    assertEquals(TYPED_PAYLOADS.values().stream().filter(b -> b).count(), staged);
  }

  /** The leaves of a struct in column order, a null struct's as nulls. */
  static void leaves(Struct struct, org.apache.kafka.connect.data.Schema schema, List<Object> out) {
    for (org.apache.kafka.connect.data.Field f : schema.fields()) {
      Object v = struct == null ? null : struct.get(f);
      if (f.schema().type() == org.apache.kafka.connect.data.Schema.Type.STRUCT) {
        leaves((Struct) v, f.schema(), out);
      } else {
        out.add(v);
      }
    }
  }

  private record Outcome(SchemaAndValue value, String error) {
    static Outcome of(java.util.function.Supplier<SchemaAndValue> decode) {
      try {
        return new Outcome(decode.get(), null);
      } catch (DataException e) {
        return new Outcome(null, e.getMessage());
      }
    }
  }
}
