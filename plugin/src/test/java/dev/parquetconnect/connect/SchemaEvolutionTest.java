package dev.parquetconnect.connect;

import static dev.parquetconnect.connect.SchemaEvolution.Action.NEW_FILE;
import static dev.parquetconnect.connect.SchemaEvolution.Action.PROJECT;
import static dev.parquetconnect.connect.SchemaEvolution.Action.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.parquetconnect.connect.SchemaInference.ConflictPolicy;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class SchemaEvolutionTest {
  private static final SchemaInference INFERENCE = new SchemaInference(ConflictPolicy.STRING);

  private static Schema v1(boolean versioned) {
    SchemaBuilder b =
        SchemaBuilder.struct()
            .name("com.example.User")
            .field("id", Schema.INT64_SCHEMA)
            .field("name", Schema.STRING_SCHEMA);
    return (versioned ? b.version(1) : b).build();
  }

  /** v1 plus an optional field and a field with a default: a backward and forward change. */
  private static Schema v2(boolean versioned) {
    SchemaBuilder b =
        SchemaBuilder.struct()
            .name("com.example.User")
            .field("id", Schema.INT64_SCHEMA)
            .field("name", Schema.STRING_SCHEMA)
            .field("email", Schema.OPTIONAL_STRING_SCHEMA)
            .field("score", SchemaBuilder.int32().defaultValue(10).build());
    return (versioned ? b.version(2) : b).build();
  }

  private static SchemaEvolution evolution(SchemaCompatibility c) {
    return new SchemaEvolution(c, INFERENCE);
  }

  @Test
  void noneOpensAFileForAnyChange() {
    SchemaEvolution none = evolution(SchemaCompatibility.NONE);
    assertEquals(WRITE, none.decide(v1(true), v1(true)));
    assertEquals(NEW_FILE, none.decide(v1(true), v2(true)));
    assertEquals(NEW_FILE, none.decide(v2(true), v1(true)));
  }

  @Test
  void backwardAndFullKeepTheNewestSchema() {
    for (SchemaCompatibility c : List.of(SchemaCompatibility.BACKWARD, SchemaCompatibility.FULL)) {
      SchemaEvolution e = evolution(c);
      for (boolean versioned : List.of(true, false)) {
        assertEquals(NEW_FILE, e.decide(v1(versioned), v2(versioned)), c + " " + versioned);
        assertEquals(PROJECT, e.decide(v2(versioned), v1(versioned)), c + " " + versioned);
      }
    }
  }

  @Test
  void forwardKeepsTheOldestSchema() {
    SchemaEvolution e = evolution(SchemaCompatibility.FORWARD);
    assertEquals(PROJECT, e.decide(v1(true), v2(true)));
    assertEquals(NEW_FILE, e.decide(v2(true), v1(true)));
    // Without versions either direction projects: the file keeps whichever came first.
    assertEquals(PROJECT, e.decide(v1(false), v2(false)));
    assertEquals(PROJECT, e.decide(v2(false), v1(false)));
  }

  /**
   * Without versions BACKWARD and FULL project only without loss: a widening that rounds (int64 to
   * float64 or float32, int32 to float32) is a loss, exact ones are not.
   */
  @Test
  void withoutVersionsNoNumberIsRoundedIntoTheFile() {
    for (SchemaCompatibility c : List.of(SchemaCompatibility.BACKWARD, SchemaCompatibility.FULL)) {
      SchemaEvolution e = evolution(c);
      assertEquals(
          NEW_FILE,
          e.decide(one(Schema.FLOAT64_SCHEMA, null), one(Schema.INT64_SCHEMA, null)),
          c + ": 2^53 + 1 has no double");
      assertEquals(
          NEW_FILE,
          e.decide(one(Schema.FLOAT32_SCHEMA, null), one(Schema.INT32_SCHEMA, null)),
          c.toString());
      assertEquals(
          PROJECT,
          e.decide(one(Schema.FLOAT64_SCHEMA, null), one(Schema.INT32_SCHEMA, null)),
          c.toString());
      assertEquals(
          PROJECT,
          e.decide(one(Schema.INT64_SCHEMA, null), one(Schema.INT32_SCHEMA, null)),
          c.toString());
      assertEquals(
          PROJECT,
          e.decide(one(Schema.FLOAT64_SCHEMA, null), one(Schema.FLOAT32_SCHEMA, null)),
          c.toString());
      // With versions the older record's rounding is the evolution its schemas declare.
      assertEquals(
          PROJECT,
          e.decide(one(Schema.FLOAT64_SCHEMA, 2), one(Schema.INT64_SCHEMA, 1)),
          c.toString());
    }
    // FORWARD without versions projects whatever the projector can.
    assertEquals(
        PROJECT,
        evolution(SchemaCompatibility.FORWARD)
            .decide(one(Schema.FLOAT64_SCHEMA, null), one(Schema.INT64_SCHEMA, null)));
  }

  private static Schema one(Schema x, Integer version) {
    return SchemaBuilder.struct().name("com.example.M").version(version).field("x", x).build();
  }

  @Test
  void incompatibleChangesOpenAFile() {
    Schema changedType =
        SchemaBuilder.struct()
            .name("com.example.User")
            .version(3)
            .field("id", Schema.STRING_SCHEMA)
            .field("name", Schema.STRING_SCHEMA)
            .build();
    Schema newRequired =
        SchemaBuilder.struct()
            .name("com.example.User")
            .version(0)
            .field("id", Schema.INT64_SCHEMA)
            .field("name", Schema.STRING_SCHEMA)
            .field("must", Schema.INT32_SCHEMA)
            .build();
    Schema renamed =
        SchemaBuilder.struct()
            .name("com.example.Other")
            .version(1)
            .field("id", Schema.INT64_SCHEMA)
            .field("name", Schema.STRING_SCHEMA)
            .build();
    for (SchemaCompatibility c : SchemaCompatibility.values()) {
      SchemaEvolution e = evolution(c);
      assertEquals(NEW_FILE, e.decide(v2(true), changedType), c.toString());
      assertEquals(NEW_FILE, e.decide(newRequired, v1(true)), c.toString());
      assertEquals(NEW_FILE, e.decide(v1(true), renamed), c.toString());
    }
    // Numbers promote as Connect's projector promotes them.
    Schema wide = SchemaBuilder.struct().field("n", Schema.INT64_SCHEMA).build();
    Schema narrow = SchemaBuilder.struct().field("n", Schema.INT16_SCHEMA).build();
    assertEquals(PROJECT, evolution(SchemaCompatibility.BACKWARD).decide(wide, narrow));
    assertEquals(NEW_FILE, evolution(SchemaCompatibility.BACKWARD).decide(narrow, wide));
  }

  @Test
  void projectionFillsDefaultsAndKeepsTheRecordsIdentity() {
    SchemaEvolution e = evolution(SchemaCompatibility.BACKWARD);
    FileLayout file = FileLayout.of(Schema.STRING_SCHEMA, v2(true), MappingOptions.fullFidelity());
    Struct old = new Struct(v1(true)).put("id", 5L).put("name", "ann");
    SinkRecord record = ConnectTestData.record(Schema.STRING_SCHEMA, "k", v1(true), old, 17);
    assertEquals(PROJECT, e.decide(file, record));
    SinkRecord projected = e.project(record, file);
    assertSame(file.valueSchema(), projected.valueSchema());
    Struct value = (Struct) projected.value();
    assertEquals(5L, value.get("id"));
    assertNull(value.get("email"));
    assertEquals(10, value.get("score"));
    assertEquals(17, projected.kafkaOffset());
    assertEquals(record.originalKafkaOffset(), projected.originalKafkaOffset());
    assertEquals(record.headers(), projected.headers());
    assertEquals(WRITE, e.decide(file, projected));
  }

  /** Files a sink opens for {@code records}, deciding each as it would. */
  private static int files(SchemaEvolution e, List<SinkRecord> records, MappingOptions options) {
    FileLayout layout = null;
    int files = 0;
    for (SinkRecord r : records) {
      SchemaEvolution.Action action = layout == null ? NEW_FILE : e.decide(layout, r);
      if (action == NEW_FILE) {
        layout = e.layoutFor(r, layout, options);
        files++;
        action = e.decide(layout, r);
      }
      if (action == PROJECT) {
        r = e.project(r, layout);
      }
      assertEquals(WRITE, e.decide(layout, r), "after projection a record fits");
    }
    return files;
  }

  @Test
  void twoInterleavedVersionsCostOneExtraFile() {
    for (boolean versioned : List.of(true, false)) {
      List<SinkRecord> records = new java.util.ArrayList<>();
      for (int i = 0; i < 100; i++) {
        Schema s = i % 2 == 0 ? v1(versioned) : v2(versioned);
        Struct v = new Struct(s).put("id", (long) i).put("name", "n" + i);
        records.add(ConnectTestData.record(Schema.STRING_SCHEMA, "k", s, v, i));
      }
      MappingOptions options = MappingOptions.defaults().withKafkaKey(true);
      assertEquals(2, files(evolution(SchemaCompatibility.BACKWARD), records, options));
      assertEquals(2, files(evolution(SchemaCompatibility.FULL), records, options));
      // FORWARD keeps the oldest, which came first: the newer records are projected to it.
      assertEquals(1, files(evolution(SchemaCompatibility.FORWARD), records, options));
      assertEquals(100, files(evolution(SchemaCompatibility.NONE), records, options));
    }
  }

  @Test
  void interleavedSchemalessShapesCostOneExtraFile() {
    List<SinkRecord> records = new java.util.ArrayList<>();
    for (int i = 0; i < 50; i++) {
      Object value =
          i % 2 == 0
              ? SchemaInferenceTest.obj("id", (long) i)
              : SchemaInferenceTest.obj("id", (long) i, "extra", List.of("x"), "n", 1.5);
      records.add(ConnectTestData.record(null, i % 3 == 0 ? null : "k" + i, null, value, i));
    }
    MappingOptions options = MappingOptions.defaults().withKafkaKey(true);
    SchemaEvolution e = evolution(SchemaCompatibility.NONE);
    assertEquals(2, files(e, records, options));
  }

  @Test
  void aKeySchemaChangeOpensAFileWhenKeysAreStored() {
    SchemaEvolution e = evolution(SchemaCompatibility.BACKWARD);
    Struct v = new Struct(v1(true)).put("id", 1L).put("name", "a");
    FileLayout withKeys =
        FileLayout.of(Schema.STRING_SCHEMA, v1(true), MappingOptions.defaults().withKafkaKey(true));
    SinkRecord intKey = ConnectTestData.record(Schema.INT32_SCHEMA, 5, v1(true), v, 1);
    assertEquals(NEW_FILE, e.decide(withKeys, intKey));
    FileLayout withoutKeys = FileLayout.of(null, v1(true), MappingOptions.defaults());
    assertEquals(WRITE, e.decide(withoutKeys, intKey));
    SinkRecord nullKey = ConnectTestData.record(null, null, v1(true), v, 2);
    assertEquals(WRITE, e.decide(withKeys, nullKey));
    SinkRecord tombstone = ConnectTestData.record(Schema.STRING_SCHEMA, "k", v2(true), null, 3);
    assertEquals(WRITE, e.decide(withKeys, tombstone), "a tombstone fits any file");
  }
}
