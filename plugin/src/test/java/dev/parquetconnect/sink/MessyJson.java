package dev.parquetconnect.sink;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded JSON order documents shaped like most real JSON: optional fields sometimes null, sometimes
 * absent, arrays sometimes empty, objects with null values, an amount that is an integer until the
 * first one with a fraction, a discount that is null for a while, and rare keys that first appear
 * late. Every document has {@code country}, one of {@link #COUNTRIES} (the field partitioner's
 * field), and {@code id}, its index. Used by the schemaless sink tests on the task and on a real
 * worker, so both see the same shapes.
 */
final class MessyJson {
  static final String[] COUNTRIES = {"de", "fr", "us", "br", "jp", "in", "za", "au"};

  /** Keys that first appear late (each in about one document of 400). */
  static final int RARE_KEYS = 4;

  private final Random random;

  MessyJson(long seed) {
    this.random = new Random(seed);
  }

  /** The key of document {@code id}: null (absent) for about a third. */
  String key(int id) {
    return random.nextInt(3) == 0 ? null : "customer-" + (id % 97);
  }

  /** Document {@code id} as JSON text. */
  String document(int id) {
    StringBuilder out = new StringBuilder("{");
    out.append("\"country\":\"").append(COUNTRIES[random.nextInt(COUNTRIES.length)]).append('"');
    out.append(",\"id\":").append(id);
    // An integer amount, until fractions turn up (a long column widened to double once).
    if (id > 2600 && random.nextInt(4) == 0) {
      out.append(",\"amount\":").append(random.nextInt(10_000)).append('.').append(25);
    } else {
      out.append(",\"amount\":").append(random.nextInt(10_000));
    }
    switch (random.nextInt(3)) {
      case 0 -> {} // absent
      case 1 -> out.append(",\"note\":null");
      default -> out.append(",\"note\":\"note ").append(random.nextInt(100)).append('"');
    }
    switch (random.nextInt(4)) {
      case 0 -> {}
      case 1 -> out.append(",\"tags\":[]");
      default -> out.append(",\"tags\":").append(tags());
    }
    // An object with a null value, sometimes empty.
    switch (random.nextInt(5)) {
      case 0 -> out.append(",\"attrs\":{}");
      case 1 -> out.append(",\"attrs\":{\"color\":null,\"size\":\"L\"}");
      case 2 -> {}
      default -> out.append(",\"attrs\":{\"color\":\"red\",\"size\":null}");
    }
    // Null for the first documents, then sometimes a number.
    if (random.nextInt(2) == 0) {
      out.append(",\"discount\":")
          .append(
              id > 500 && random.nextBoolean()
                  ? Integer.toString(random.nextInt(50)) + ".5"
                  : "null");
    }
    out.append(",\"address\":{\"city\":\"city-").append(random.nextInt(20)).append('"');
    if (random.nextBoolean()) {
      out.append(",\"zip\":\"").append(10_000 + random.nextInt(90_000)).append('"');
    }
    out.append('}');
    for (int k = 0; k < RARE_KEYS; k++) {
      if (id > 1000 * (k + 1) && random.nextInt(400) == 0) {
        out.append(",\"rare_").append(k).append("\":").append(random.nextInt(100));
      }
    }
    return out.append('}').toString();
  }

  private String tags() {
    List<String> tags = new ArrayList<>();
    int n = 1 + random.nextInt(3);
    for (int i = 0; i < n; i++) {
      tags.add("\"t" + random.nextInt(10) + "\"");
    }
    return "[" + String.join(",", tags) + "]";
  }
}
