package dev.parquetconnect.bench.files;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;

import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * The event records the files suite writes and reads (id, time, two low-cardinality strings, two
 * measurements, a list of tags, a list of scores), in both models: our {@link Row}s and
 * parquet-java's example {@link Group}s, holding the same values (fixed seed).
 */
record EventsData(
    MessageType schema,
    List<Row> rows,
    org.apache.parquet.schema.MessageType groupSchema,
    List<Group> groups) {

  static EventsData generate(int count) {
    PrimitiveNode text =
        PrimitiveNode.of("x", OPTIONAL, PhysicalType.BYTE_ARRAY)
            .withLogicalType(LogicalType.STRING);
    MessageType schema =
        new MessageType(
            "events",
            List.of(
                PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64),
                PrimitiveNode.of("ts", REQUIRED, PhysicalType.INT64)
                    .withLogicalType(new LogicalType.TimestampType(true, TimeUnit.MICROS)),
                text.withName("status"),
                text.withName("country"),
                PrimitiveNode.of("price", OPTIONAL, PhysicalType.DOUBLE),
                PrimitiveNode.of("temperature", OPTIONAL, PhysicalType.FLOAT),
                NestedTypes.list("tags", OPTIONAL, text),
                NestedTypes.list(
                    "scores", OPTIONAL, PrimitiveNode.of("s", REQUIRED, PhysicalType.INT32))));
    org.apache.parquet.schema.MessageType groupSchema =
        MessageTypeParser.parseMessageType(schema.toString());
    SimpleGroupFactory factory = new SimpleGroupFactory(groupSchema);
    Random random = new Random(1);
    String[] statuses = {"ok", "ok", "ok", "retry", "failed", "pending", "timeout"};
    List<Row> rows = new ArrayList<>(count);
    List<Group> groups = new ArrayList<>(count);
    long id = 0;
    long ts = 1_700_000_000_000_000L;
    double price = 100;
    for (int r = 0; r < count; r++) {
      id += 1 + random.nextInt(3);
      ts += 800 + random.nextInt(400);
      price = Math.max(1, price + random.nextGaussian() * 0.05);
      String status = statuses[random.nextInt(statuses.length)];
      String country =
          String.format(Locale.ROOT, "C%03d", (int) Math.abs(random.nextGaussian() * 40));
      double roundedPrice = Math.round(price * 100) / 100.0;
      float temperature = (float) (20 + random.nextGaussian() * 3);
      List<Object> tags = new ArrayList<>();
      List<Object> scores = new ArrayList<>();
      for (int i = random.nextInt(4); i > 0; i--) {
        tags.add(("tag" + random.nextInt(30)).getBytes(StandardCharsets.UTF_8));
      }
      for (int i = random.nextInt(6); i > 0; i--) {
        scores.add(random.nextInt(101));
      }
      rows.add(
          Row.of(
              schema.root(),
              id,
              ts,
              status.getBytes(StandardCharsets.UTF_8),
              country.getBytes(StandardCharsets.UTF_8),
              roundedPrice,
              temperature,
              tags,
              scores));
      Group g = factory.newGroup();
      g.add("id", id);
      g.add("ts", ts);
      g.add("status", status);
      g.add("country", country);
      g.add("price", roundedPrice);
      g.add("temperature", temperature);
      Group tagList = g.addGroup("tags");
      for (Object t : tags) {
        tagList.addGroup("list").add("element", Binary.fromConstantByteArray((byte[]) t));
      }
      Group scoreList = g.addGroup("scores");
      for (Object s : scores) {
        scoreList.addGroup("list").add("element", (Integer) s);
      }
      groups.add(g);
    }
    return new EventsData(schema, rows, groupSchema, groups);
  }
}
