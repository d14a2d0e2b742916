package dev.parquetconnect.bench.source;

import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.connect.MappingOptions;
import dev.parquetconnect.connect.ParquetRecordWriter;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.write.WriterOptions;
import dev.parquetconnect.source.ParquetSourceTask;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.LogicalTypes;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.io.LocalInputFile;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Replaying one archive file (the sink's layout: a nested value, key, headers, timestamps and the
 * other metadata columns; 200,000 rows, ZSTD) into Connect {@code SourceRecord}s. Ours: a {@link
 * ParquetSourceTask} polled until every row came back (our reader through the local store, our
 * Parquet to Connect mapping). parquet-java: {@code AvroParquetReader} reading {@code
 * GenericRecord}s, converted to Connect the way Avro-based source connectors do (a Connect schema
 * derived from the Avro schema once, values converted field by field), with the same key, timestamp
 * and headers taken from the metadata columns. One operation is the whole file.
 */
@State(Scope.Benchmark)
public class ReplayBench {
  private static final int ROWS = 200_000;
  private static final String TOPIC = "events";

  private Path root;
  private Path file;

  @Setup(Level.Trial)
  public void writeArchive() throws Exception {
    root = Files.createTempDirectory("replay-bench");
    file = root.resolve("topics/events/partition=0/events+0+00000000000000000000.parquet");
    Files.createDirectories(file.getParent());
    Schema address =
        SchemaBuilder.struct()
            .name("Address")
            .optional()
            .field("street", Schema.STRING_SCHEMA)
            .field("zip", Schema.INT32_SCHEMA)
            .build();
    Schema value =
        SchemaBuilder.struct()
            .name("Event")
            .field("id", Schema.INT64_SCHEMA)
            .field("status", Schema.STRING_SCHEMA)
            .field("amount", Decimal.builder(2).optional().build())
            .field("price", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .field("address", address)
            .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).build())
            .build();
    String[] statuses = {"ok", "ok", "ok", "retry", "failed", "pending"};
    Random random = new Random(7);
    FileLayout layout =
        FileLayout.of(Schema.OPTIONAL_STRING_SCHEMA, value, MappingOptions.fullFidelity());
    WriterOptions options = WriterOptions.builder().codec(CompressionCodec.ZSTD).build();
    try (OutputStream out = Files.newOutputStream(file);
        ParquetRecordWriter writer = new ParquetRecordWriter(out, layout, options)) {
      for (int i = 0; i < ROWS; i++) {
        List<String> tags = new ArrayList<>();
        for (int t = 0; t < i % 3; t++) {
          tags.add("tag-" + random.nextInt(50));
        }
        Struct v =
            new Struct(value)
                .put("id", (long) i)
                .put("status", statuses[random.nextInt(6)])
                .put("amount", i % 5 == 0 ? null : BigDecimal.valueOf(random.nextInt(1_000_000), 2))
                .put("price", random.nextDouble() * 100)
                .put(
                    "address",
                    i % 11 == 0
                        ? null
                        : new Struct(address)
                            .put("street", i + " Main Street")
                            .put("zip", 10_000 + i % 90_000))
                .put("tags", tags);
        ConnectHeaders headers = new ConnectHeaders();
        headers.addString("source", "bench");
        headers.addString("seq", Integer.toString(i));
        writer.write(
            new SinkRecord(
                TOPIC,
                0,
                Schema.OPTIONAL_STRING_SCHEMA,
                i % 13 == 0 ? null : "key-" + i,
                value,
                v,
                i,
                1_700_000_000_000L + i,
                TimestampType.CREATE_TIME,
                headers));
      }
    }
  }

  @TearDown(Level.Trial)
  public void deleteArchive() throws Exception {
    try (var paths = Files.walk(root)) {
      paths.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
    }
  }

  @Benchmark
  public long ours(Blackhole consumer) throws Exception {
    Map<String, String> props = new HashMap<>();
    props.put("name", "bench");
    props.put("store.url", root.toUri().toString());
    props.put("batch.size", "4096");
    ParquetSourceTask task = new ParquetSourceTask();
    task.initialize(new NoOffsetsContext(props));
    task.start(props);
    long records = 0;
    long checksum = 0;
    try {
      while (records < ROWS) {
        List<SourceRecord> batch = task.poll();
        if (batch == null) {
          throw new IllegalStateException("the task went idle after " + records + " records");
        }
        for (SourceRecord r : batch) {
          consumer.consume(r);
          checksum += r.headers().size();
        }
        records += batch.size();
      }
    } finally {
      task.stop();
    }
    return checksum;
  }

  @Benchmark
  public long parquetJava(Blackhole consumer) throws Exception {
    long checksum = 0;
    try (ParquetReader<GenericRecord> reader =
        AvroParquetReader.<GenericRecord>builder(new LocalInputFile(file))
            .withConf(new Configuration(false))
            .build()) {
      AvroToConnect converter = null;
      GenericRecord record;
      long offset = 0;
      while ((record = reader.read()) != null) {
        if (converter == null) {
          converter = new AvroToConnect(record.getSchema());
        }
        SourceRecord r = converter.toRecord(record, offset++);
        consumer.consume(r);
        checksum += r.headers().size();
      }
    }
    return checksum;
  }

  /** An Avro record of the archive as a SourceRecord, the way Avro-based connectors convert. */
  private static final class AvroToConnect {
    private final Schema valueSchema;
    private final List<String> valueFields = new ArrayList<>();

    AvroToConnect(org.apache.avro.Schema avro) {
      SchemaBuilder value = SchemaBuilder.struct();
      for (org.apache.avro.Schema.Field f : avro.getFields()) {
        if (!f.name().startsWith("__kafka_")) {
          value.field(f.name(), toConnectSchema(f.schema()));
          valueFields.add(f.name());
        }
      }
      this.valueSchema = value.build();
    }

    SourceRecord toRecord(GenericRecord record, long position) {
      Struct value = new Struct(valueSchema);
      for (String name : valueFields) {
        Field f = valueSchema.field(name);
        value.put(f, toConnectValue(f.schema(), record.get(name)));
      }
      Object key = record.get("__kafka_key");
      ConnectHeaders headers = new ConnectHeaders();
      Object list = record.get("__kafka_headers");
      if (list instanceof Collection<?> entries) {
        for (Object e : entries) {
          GenericRecord h = unwrapElement((GenericRecord) e);
          Object v = h.get("value");
          headers.addString(
              h.get("key").toString(),
              v == null
                  ? null
                  : StandardCharsets.UTF_8.decode(((ByteBuffer) v).duplicate()).toString());
        }
      }
      Map<String, Object> sourcePartition = Map.of("file", "events");
      Map<String, Object> sourceOffset = Map.of("row", position);
      return new SourceRecord(
          sourcePartition,
          sourceOffset,
          record.get("__kafka_topic").toString(),
          (Integer) record.get("__kafka_partition"),
          Schema.OPTIONAL_STRING_SCHEMA,
          key == null ? null : key.toString(),
          valueSchema,
          value,
          (Long) record.get("__kafka_timestamp"),
          headers);
    }

    /** parquet-avro reads a 3-level list's entries as records holding {@code element}. */
    private static GenericRecord unwrapElement(GenericRecord e) {
      return e.getSchema().getField("element") != null
              && e.get("element") instanceof GenericRecord inner
          ? inner
          : e;
    }

    private static Schema toConnectSchema(org.apache.avro.Schema avro) {
      boolean optional = false;
      if (avro.getType() == org.apache.avro.Schema.Type.UNION) {
        for (org.apache.avro.Schema branch : avro.getTypes()) {
          if (branch.getType() != org.apache.avro.Schema.Type.NULL) {
            avro = branch;
          } else {
            optional = true;
          }
        }
      }
      SchemaBuilder b;
      switch (avro.getType()) {
        case RECORD -> {
          if (avro.getFields().size() == 1 && avro.getField("element") != null) {
            return toConnectSchema(avro.getField("element").schema());
          }
          b = SchemaBuilder.struct();
          for (org.apache.avro.Schema.Field f : avro.getFields()) {
            b.field(f.name(), toConnectSchema(f.schema()));
          }
        }
        case ARRAY -> b = SchemaBuilder.array(toConnectSchema(avro.getElementType()));
        case MAP ->
            b = SchemaBuilder.map(Schema.STRING_SCHEMA, toConnectSchema(avro.getValueType()));
        case STRING -> b = SchemaBuilder.string();
        case INT -> b = SchemaBuilder.int32();
        case LONG -> {
          if (avro.getLogicalType() instanceof LogicalTypes.Decimal d) {
            b = Decimal.builder(d.getScale());
          } else {
            b = SchemaBuilder.int64();
          }
        }
        case BYTES, FIXED ->
            b =
                avro.getLogicalType() instanceof LogicalTypes.Decimal d
                    ? Decimal.builder(d.getScale())
                    : SchemaBuilder.bytes();
        case DOUBLE -> b = SchemaBuilder.float64();
        case FLOAT -> b = SchemaBuilder.float32();
        case BOOLEAN -> b = SchemaBuilder.bool();
        default -> b = SchemaBuilder.bytes();
      }
      return optional ? b.optional().build() : b.build();
    }

    private static Object toConnectValue(Schema schema, Object avro) {
      if (avro == null) {
        return null;
      }
      switch (schema.type()) {
        case STRUCT -> {
          GenericRecord record = (GenericRecord) avro;
          Struct struct = new Struct(schema);
          for (Field f : schema.fields()) {
            struct.put(f, toConnectValue(f.schema(), record.get(f.name())));
          }
          return struct;
        }
        case ARRAY -> {
          Collection<?> items = (Collection<?>) avro;
          List<Object> out = new ArrayList<>(items.size());
          for (Object item : items) {
            Object element =
                item instanceof GenericRecord g
                        && g.getSchema().getFields().size() == 1
                        && g.getSchema().getField("element") != null
                    ? g.get("element")
                    : item;
            out.add(toConnectValue(schema.valueSchema(), element));
          }
          return out;
        }
        case MAP -> {
          Map<Object, Object> out = new LinkedHashMap<>();
          for (Map.Entry<?, ?> e : ((Map<?, ?>) avro).entrySet()) {
            out.put(e.getKey().toString(), toConnectValue(schema.valueSchema(), e.getValue()));
          }
          return out;
        }
        case STRING -> {
          return avro.toString();
        }
        case INT64 -> {
          if (Decimal.LOGICAL_NAME.equals(schema.name())) {
            int scale = Integer.parseInt(schema.parameters().get(Decimal.SCALE_FIELD));
            return new BigDecimal(BigInteger.valueOf((Long) avro), scale);
          }
          return avro;
        }
        case BYTES -> {
          if (Decimal.LOGICAL_NAME.equals(schema.name())) {
            int scale = Integer.parseInt(schema.parameters().get(Decimal.SCALE_FIELD));
            return new BigDecimal(new BigInteger(bytesOf(avro)), scale);
          }
          return bytesOf(avro);
        }
        default -> {
          return avro;
        }
      }
    }
  }

  private static byte[] bytesOf(Object avro) {
    if (avro instanceof GenericFixed fixed) {
      return fixed.bytes();
    }
    ByteBuffer b = (ByteBuffer) avro;
    byte[] bytes = new byte[b.remaining()];
    b.duplicate().get(bytes);
    return bytes;
  }

  /** A task context without committed offsets: every poll starts from the file's beginning. */
  private record NoOffsetsContext(Map<String, String> configs) implements SourceTaskContext {
    @Override
    public OffsetStorageReader offsetStorageReader() {
      return new OffsetStorageReader() {
        @Override
        public <T> Map<String, Object> offset(Map<String, T> partition) {
          return null;
        }

        @Override
        public <T> Map<Map<String, T>, Map<String, Object>> offsets(
            Collection<Map<String, T>> partitions) {
          return Map.of();
        }
      };
    }
  }
}
