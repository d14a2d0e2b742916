package dev.parquetconnect.sink.commit.iceberg;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.parquetconnect.sink.partition.HivePaths;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.ContentFileParser;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.util.JsonUtil;
import org.apache.kafka.common.TopicPartition;

/**
 * A Kafka partition's range staged for the table commit: its offsets and its data files, durable
 * under their final keys but referenced by no snapshot yet. Stored as a small JSON descriptor in
 * the table's staging directory ({@link TableCommitter}); each data file in Iceberg's own JSON form
 * ({@link ContentFileParser}), so the metrics the writer computed travel with it and are never read
 * again from the file.
 *
 * @param source the Kafka partition
 * @param start the first offset
 * @param end the last offset
 * @param attempt the attempt number in the data files' names
 * @param stagedAt when its writer staged it (the writer's wall clock): which round takes it
 * @param after the offset its writer's chain continues: the end of its previous range, or the
 *     offset the table held when it recovered; -1 when its writer knew of nothing before it (only
 *     such a range may start a partition the table has no offset of)
 * @param keys the store keys of the data files
 * @param files the data files as JSON, in the order of {@code keys}
 */
record StagedRange(
    TopicPartition source,
    long start,
    long end,
    long attempt,
    long stagedAt,
    long after,
    List<String> keys,
    JsonNode files) {
  private static final int FORMAT = 1;

  StagedRange {
    keys = List.copyOf(keys);
  }

  /** The descriptor's name in the staging directory (unique: the attempt is random). */
  String name() {
    return HivePaths.encodeSegment(source.topic(), 180)
        + "+"
        + source.partition()
        + "+"
        + start
        + "+"
        + end
        + "-"
        + attempt
        + ".json";
  }

  /** The range's data files, decoded with the table's partition specs. */
  List<DataFile> dataFiles(Map<Integer, PartitionSpec> specs) {
    List<DataFile> out = new ArrayList<>(files.size());
    for (JsonNode node : files) {
      out.add((DataFile) ContentFileParser.fromJson(node, specs));
    }
    return out;
  }

  /**
   * The descriptor of a range whose data files are {@code dataFiles}, written with {@code spec}.
   */
  static byte[] encode(
      TopicPartition source,
      long start,
      long end,
      long attempt,
      long stagedAt,
      long after,
      List<String> keys,
      List<DataFile> dataFiles,
      Map<Integer, PartitionSpec> specs) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JsonGenerator json = JsonUtil.factory().createGenerator(bytes)) {
      json.writeStartObject();
      json.writeNumberField("format", FORMAT);
      json.writeStringField("topic", source.topic());
      json.writeNumberField("partition", source.partition());
      json.writeNumberField("start", start);
      json.writeNumberField("end", end);
      json.writeNumberField("attempt", attempt);
      json.writeNumberField("staged-at", stagedAt);
      json.writeNumberField("after", after);
      json.writeArrayFieldStart("keys");
      for (String key : keys) {
        json.writeString(key);
      }
      json.writeEndArray();
      json.writeArrayFieldStart("files");
      for (DataFile file : dataFiles) {
        ContentFileParser.toJson(file, specs.get(file.specId()), json);
      }
      json.writeEndArray();
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * Reads a descriptor.
   *
   * @throws IOException when it is not one (says which key)
   */
  static StagedRange decode(String key, byte[] bytes) throws IOException {
    try {
      JsonNode root = JsonUtil.mapper().readTree(new String(bytes, StandardCharsets.UTF_8));
      if (root == null || root.path("format").asInt() != FORMAT) {
        throw new IOException("not a staged range descriptor of format " + FORMAT);
      }
      List<String> keys = new ArrayList<>();
      for (JsonNode k : root.withArray("keys")) {
        keys.add(k.asText());
      }
      JsonNode files = root.withArray("files");
      if (keys.size() != files.size()) {
        throw new IOException(keys.size() + " keys but " + files.size() + " data files");
      }
      return new StagedRange(
          new TopicPartition(root.get("topic").asText(), root.get("partition").asInt()),
          root.get("start").asLong(),
          root.get("end").asLong(),
          root.get("attempt").asLong(),
          root.get("staged-at").asLong(),
          // Descriptors of earlier versions do not say: as before, any start may begin a chain.
          root.path("after").asLong(-1),
          keys,
          files);
    } catch (IOException | RuntimeException e) {
      throw new IOException("staged range descriptor " + key + " cannot be read: " + e, e);
    }
  }
}
