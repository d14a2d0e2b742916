package dev.parquetconnect.connect.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.parquetconnect.connect.SchemaInference;
import dev.parquetconnect.connect.StagedRow;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Untrusted bytes into the JSON reader, both forms (schemaless and envelopes): mutated documents
 * (several mutations each), random bytes, random bytes over JSON's own alphabet, and pathological
 * shapes (deep nesting, long numbers, long strings, truncation at every byte). Every input must end
 * in a value or a {@link DataException}; anything else (an unchecked exception, a stack overflow,
 * an OutOfMemoryError) fails, and so does a hang (the timeout). Seeds fixed and logged; the work is
 * bounded by count and by a time budget.
 */
final class JsonReaderFuzzTest {
  private static final Logger LOG = LoggerFactory.getLogger(JsonReaderFuzzTest.class);
  private static final long SEED = 0xF022_15L;
  private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(8);
  private static final int INPUTS = 400_000;

  @Test
  @Timeout(30)
  void everyInputEndsInAValueOrADataException() {
    LOG.info("seed {}", SEED);
    Random random = new Random(SEED);
    RandomJson gen = new RandomJson(random);
    List<JsonRecordDecoder> decoders =
        List.of(new JsonRecordDecoder(false, false), new JsonRecordDecoder(true, false));
    List<byte[]> seeds = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      seeds.add(gen.document().getBytes(StandardCharsets.UTF_8));
      seeds.add(
          ("{\"schema\":{\"type\":\"struct\",\"fields\":[{\"field\":\"a\",\"type\":\"bytes\"},"
                  + "{\"field\":\"d\",\"type\":\"bytes\",\"name\":"
                  + "\"org.apache.kafka.connect.data.Decimal\",\"parameters\":{\"scale\":\"2\"}}]"
                  + ",\"optional\":false},\"payload\":"
                  + gen.document()
                  + "}")
              .getBytes(StandardCharsets.UTF_8));
    }
    long start = System.nanoTime();
    int inputs = 0;
    int accepted = 0;
    for (; inputs < INPUTS && System.nanoTime() - start < BUDGET_NANOS; inputs++) {
      byte[] input = input(inputs, random, seeds);
      for (JsonRecordDecoder decoder : decoders) {
        try {
          decoder.decode(input, "value");
          accepted++;
        } catch (DataException expected) {
          // a clear per-record error is the only allowed failure
        } catch (Throwable t) {
          fail("input " + inputs + " (" + input.length + " bytes) threw " + t, t);
        }
      }
    }
    LOG.info(
        "{} inputs in {} ms, {} readings accepted",
        inputs,
        (System.nanoTime() - start) / 1_000_000,
        accepted);
    assertTrue(inputs >= 10_000, "enough inputs within the budget");
  }

  @Test
  @Timeout(30)
  void pathologicalShapesAreRefusedQuickly() {
    JsonRecordDecoder decoder = new JsonRecordDecoder(false, false);
    List<String> shapes =
        List.of(
            "[".repeat(5_000_000),
            "{\"a\":[".repeat(500_000),
            "9".repeat(5_000_000),
            "0." + "0".repeat(5_000_000) + "1",
            "\"" + "\\u00e9".repeat(1_000_000),
            "{\"k\":" + "\"x\",\"k\":".repeat(500_000) + "1}");
    for (String shape : shapes) {
      byte[] bytes = shape.getBytes(StandardCharsets.UTF_8);
      for (int cut : new int[] {bytes.length, bytes.length / 2, 1}) {
        byte[] part = java.util.Arrays.copyOf(bytes, cut);
        try {
          decoder.decode(part, "value");
        } catch (DataException expected) {
          // refused with a message, as it must be
        }
      }
    }
  }

  /**
   * Envelopes of stageable schemas whose payloads (after a known prefix) are mutated, and payloads
   * of pathological shapes: staging ends in a row or in nothing (the record left to the Struct
   * path), never in an exception; and a row it takes is one the Struct path takes, leaf for leaf.
   */
  @Test
  @Timeout(60)
  void stagingEndsInARowOrLeavesTheRecord() {
    LOG.info("seed {}", SEED + 1);
    Random random = new Random(SEED + 1);
    RandomJson gen = new RandomJson(random);
    gen.shortDoubles(true);
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of("schemas.enable", "true"), false);
    long start = System.nanoTime();
    int inputs = 0;
    int staged = 0;
    while (inputs < INPUTS / 4 && System.nanoTime() - start < BUDGET_NANOS) {
      Schema schema = gen.stageableSchema(0);
      byte[] primer = converter.fromConnectData("t", schema, gen.valueOf(schema));
      String text = new String(primer, StandardCharsets.UTF_8);
      int prefix = text.indexOf(",\"payload\":") + ",\"payload\":".length();
      byte[] head = Arrays.copyOf(primer, prefix);
      JsonRecordDecoder decoder = new JsonRecordDecoder(true, false);
      List<byte[]> payloads = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        byte[] doc = converter.fromConnectData("t", schema, gen.valueOf(schema));
        payloads.add(Arrays.copyOfRange(doc, prefix, doc.length));
      }
      payloads.add(("{\"f0\":" + "{\"a\":".repeat(5_000)).getBytes(StandardCharsets.UTF_8));
      payloads.add(("{\"f0\":" + "9".repeat(100_000) + "}}").getBytes(StandardCharsets.UTF_8));
      payloads.add(("{\"f0\":\"" + "\\u00e9".repeat(100_000)).getBytes(StandardCharsets.UTF_8));
      // The new kinds at their edges: long base64, base64 cut or bent, decimals and small
      // integers beyond their ranges, exponents beyond an int.
      payloads.add(("{\"f0\":\"" + "AQID".repeat(50_000) + "\"}").getBytes(StandardCharsets.UTF_8));
      payloads.add("{\"f0\":\"AQI\",\"f1\":\"A=QI\"}".getBytes(StandardCharsets.UTF_8));
      payloads.add("{\"f0\":\"gAAAAAAAAAAAAAAA\",\"f1\":\"\"}".getBytes(StandardCharsets.UTF_8));
      payloads.add("{\"f0\":-32769,\"f1\":128,\"f2\":-129}".getBytes(StandardCharsets.UTF_8));
      payloads.add(
          "{\"f0\":1e-2147483649,\"f1\":9.99999999999999999e999999}"
              .getBytes(StandardCharsets.UTF_8));
      payloads.add("{\"f0\":86400000,\"f1\":2147483648}".getBytes(StandardCharsets.UTF_8));
      for (int i = 0; i < 200; i++, inputs++) {
        decoder.decode(primer, "value");
        byte[] payload = payloads.get(random.nextInt(payloads.size()));
        int mutations = random.nextInt(4);
        for (int m = 0; m < mutations; m++) {
          payload = JsonInputDifferentialTest.mutate(payload, random);
        }
        byte[] input = new byte[prefix + payload.length];
        System.arraycopy(head, 0, input, 0, prefix);
        System.arraycopy(payload, 0, input, prefix, payload.length);
        StagedRow row;
        try {
          row = decoder.stage(input);
        } catch (Throwable t) {
          throw new AssertionError("staging input " + inputs + " threw " + t, t);
        }
        if (row == null) {
          continue;
        }
        staged++;
        List<Object> leaves = new ArrayList<>();
        Object[] values = new Object[row.leafCount()];
        for (int leaf = 0; leaf < values.length; leaf++) {
          values[leaf] = row.value(leaf); // before the decoder reads again into the row
        }
        SchemaAndValue decoded = new JsonRecordDecoder(true, false).decode(input, "value");
        EnvelopePrefixTest.leaves((Struct) decoded.value(), decoded.schema(), leaves);
        assertEquals(leaves.size(), values.length, "input " + inputs);
        for (int leaf = 0; leaf < values.length; leaf++) {
          if (!JsonInputDifferentialTest.deepEquals(leaves.get(leaf), values[leaf])) {
            throw new AssertionError(
                "input "
                    + inputs
                    + " leaf "
                    + leaf
                    + ": "
                    + leaves.get(leaf)
                    + " / "
                    + values[leaf]);
          }
        }
      }
    }
    LOG.info(
        "{} mutated staged envelopes in {} ms, {} staged",
        inputs,
        (System.nanoTime() - start) / 1_000_000,
        staged);
    assertTrue(staged > 0 && staged < inputs, staged + " of " + inputs);
  }

  /**
   * Schemaless documents of a learned shape, mutated (one to three times each), and pathological
   * documents that start like it: staging ends in a row or in nothing, never in an exception, and a
   * row it takes holds what the connect path's conform makes of the same document for a file of the
   * row's schema, leaf for leaf (the document fits that schema, or conform would refuse it).
   */
  @Test
  @Timeout(60)
  void schemalessStagingEndsInARowOrLeavesTheRecord() {
    LOG.info("seed {}", SEED + 2);
    Random random = new Random(SEED + 2);
    SchemaInference inference = new SchemaInference(SchemaInference.ConflictPolicy.STRING);
    long start = System.nanoTime();
    int inputs = 0;
    int staged = 0;
    while (inputs < INPUTS / 4 && System.nanoTime() - start < BUDGET_NANOS) {
      SchemalessShapes shapes = new SchemalessShapes(random);
      JsonRecordDecoder decoder = new JsonRecordDecoder(false, false);
      List<byte[]> docs = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        docs.add(shapes.document());
      }
      String first = new String(docs.get(0), StandardCharsets.UTF_8);
      String head = first.substring(0, Math.max(1, first.indexOf(':') + 1));
      docs.add((head + "{\"a\":".repeat(5_000)).getBytes(StandardCharsets.UTF_8));
      docs.add((head + "9".repeat(100_000) + "}").getBytes(StandardCharsets.UTF_8));
      docs.add((head + "\"" + "\\u00e9".repeat(100_000)).getBytes(StandardCharsets.UTF_8));
      for (int i = 0; i < 200; i++, inputs++) {
        byte[] primer = docs.get(random.nextInt(20));
        decoder.decode(new SinkRecord("t", 0, null, null, null, primer, inputs));
        byte[] input = docs.get(random.nextInt(docs.size()));
        int mutations = random.nextInt(4);
        for (int m = 0; m < mutations; m++) {
          input = JsonInputDifferentialTest.mutate(input, random);
        }
        StagedRow row;
        try {
          row = decoder.stage(input);
        } catch (Throwable t) {
          throw new AssertionError("staging schemaless input " + inputs + " threw " + t, t);
        }
        if (row == null) {
          continue;
        }
        staged++;
        Object[] values = new Object[row.leafCount()];
        for (int leaf = 0; leaf < values.length; leaf++) {
          values[leaf] = row.value(leaf);
        }
        Object map = new JsonRecordDecoder(false, false).decode(input, "value").value();
        Struct expected = (Struct) inference.conform(row.schema(), map);
        List<Object> leaves = new ArrayList<>();
        storedLeaves(expected, row.schema(), leaves);
        assertEquals(leaves, Arrays.asList(values), "schemaless input " + inputs);
      }
    }
    LOG.info(
        "{} mutated schemaless documents in {} ms, {} staged",
        inputs,
        (System.nanoTime() - start) / 1_000_000,
        staged);
    assertTrue(staged > 0 && staged < inputs, staged + " of " + inputs);
  }

  /** The values of a struct's leaves that have columns, in column order (null under a null). */
  static void storedLeaves(Struct struct, Schema schema, List<Object> out) {
    for (org.apache.kafka.connect.data.Field f : schema.fields()) {
      if (SchemaInference.isUnknown(f.schema())) {
        continue;
      }
      Object v = struct == null ? null : struct.get(f);
      if (f.schema().type() == Schema.Type.STRUCT) {
        storedLeaves((Struct) v, f.schema(), out);
      } else {
        out.add(v);
      }
    }
  }

  private static byte[] input(int i, Random random, List<byte[]> seeds) {
    switch (i % 4) {
      case 0, 1 -> {
        byte[] doc = seeds.get(random.nextInt(seeds.size()));
        int mutations = 1 + random.nextInt(4);
        for (int m = 0; m < mutations; m++) {
          doc = JsonInputDifferentialTest.mutate(doc, random);
        }
        return doc;
      }
      case 2 -> {
        byte[] doc = new byte[random.nextInt(64)];
        random.nextBytes(doc);
        return doc;
      }
      default -> {
        String alphabet = "{}[],:\"\\ -+.0123456789eEtrufalsn\u00e9\ud83d\ude00u";
        StringBuilder s = new StringBuilder();
        int n = random.nextInt(96);
        for (int k = 0; k < n; k++) {
          s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
      }
    }
  }
}
