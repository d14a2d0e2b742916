package dev.parquetconnect.connect.json;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.DataException;
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
