package dev.parquetconnect.it;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Producing and consuming test records with plain kafka-clients, outside any Connect worker: what
 * goes into a sink's topic and what a source wrote. Every call is bounded by its timeout.
 */
public final class KafkaRecords {

  private static final Duration POLL = Duration.ofMillis(200);

  private KafkaRecords() {}

  /**
   * Sends {@code records} to {@code topic} (acks=all, idempotent, in order) and returns where each
   * landed, in the order given.
   */
  public static List<RecordMetadata> produce(
      String bootstrapServers, String topic, Collection<JsonRecord> records, Duration timeout) {
    Properties config = new Properties();
    config.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.setProperty(ProducerConfig.ACKS_CONFIG, "all");
    config.setProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    // The producer checks delivery.timeout.ms >= linger.ms + request.timeout.ms.
    long lingerMs = 5;
    long requestTimeoutMs = Math.min(timeout.toMillis(), 30_000);
    config.setProperty(ProducerConfig.LINGER_MS_CONFIG, Long.toString(lingerMs));
    config.setProperty(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(requestTimeoutMs));
    config.setProperty(
        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
        Long.toString(Math.max(timeout.toMillis(), lingerMs + requestTimeoutMs)));
    config.setProperty(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(timeout.toMillis()));
    long deadline = System.nanoTime() + timeout.toNanos();
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
      List<Future<RecordMetadata>> sent = new ArrayList<>(records.size());
      for (JsonRecord record : records) {
        ProducerRecord<String, String> producerRecord =
            new ProducerRecord<>(
                topic, record.partition(), record.timestamp(), record.key(), record.value());
        for (Map.Entry<String, String> header : record.headers()) {
          producerRecord
              .headers()
              .add(
                  new RecordHeader(
                      header.getKey(),
                      header.getValue() == null
                          ? null
                          : header.getValue().getBytes(StandardCharsets.UTF_8)));
        }
        sent.add(producer.send(producerRecord));
      }
      producer.flush();
      List<RecordMetadata> placed = new ArrayList<>(sent.size());
      for (Future<RecordMetadata> future : sent) {
        placed.add(future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
      }
      return placed;
    } catch (Exception e) {
      throw new IllegalStateException(
          "Producing " + records.size() + " records to " + topic + " failed", e);
    }
  }

  /**
   * Every committed record of {@code topic} from its beginning up to the end offsets at the time of
   * the call, partition by partition in offset order (read_committed, so aborted transactions of an
   * exactly-once source are not counted).
   */
  public static List<ConsumerRecord<String, String>> consumeAll(
      String bootstrapServers, String topic, Duration timeout) {
    try (KafkaConsumer<String, String> consumer = newConsumer(bootstrapServers)) {
      long deadline = System.nanoTime() + timeout.toNanos();
      List<TopicPartition> partitions = assignAll(consumer, topic, timeout);
      Map<TopicPartition, Long> endOffsets = consumer.endOffsets(partitions, timeout);
      List<ConsumerRecord<String, String>> records = new ArrayList<>();
      pollUntil(
          consumer,
          records,
          deadline,
          "the end offsets " + endOffsets + " of " + topic,
          () ->
              partitions.stream()
                  .allMatch(
                      p -> consumer.position(p, Duration.ofSeconds(10)) >= endOffsets.get(p)));
      return sortedByPartition(records);
    }
  }

  /**
   * Consumes {@code topic} from its beginning until at least {@code count} committed records have
   * arrived (for topics that a connector is still filling), partition by partition in offset order.
   */
  public static List<ConsumerRecord<String, String>> consumeAtLeast(
      String bootstrapServers, String topic, int count, Duration timeout) {
    try (KafkaConsumer<String, String> consumer = newConsumer(bootstrapServers)) {
      long deadline = System.nanoTime() + timeout.toNanos();
      assignAll(consumer, topic, timeout);
      List<ConsumerRecord<String, String>> records = new ArrayList<>();
      pollUntil(
          consumer,
          records,
          deadline,
          count + " records in " + topic,
          () -> records.size() >= count);
      return sortedByPartition(records);
    }
  }

  private static KafkaConsumer<String, String> newConsumer(String bootstrapServers) {
    Properties config = new Properties();
    config.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    config.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    // Reading must never create the topic it waits for.
    config.setProperty(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
    return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
  }

  private static List<TopicPartition> assignAll(
      KafkaConsumer<String, String> consumer, String topic, Duration timeout) {
    List<TopicPartition> partitions = new ArrayList<>();
    Await.until(
        "topic " + topic + " to exist",
        timeout,
        () -> {
          List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(5));
          if (infos == null || infos.isEmpty()) {
            return false;
          }
          for (PartitionInfo info : infos) {
            partitions.add(new TopicPartition(topic, info.partition()));
          }
          return true;
        });
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    return partitions;
  }

  private static void pollUntil(
      KafkaConsumer<String, String> consumer,
      List<ConsumerRecord<String, String>> sink,
      long deadline,
      String what,
      BooleanSupplier done) {
    while (!done.getAsBoolean()) {
      if (System.nanoTime() - deadline >= 0) {
        throw new IllegalStateException(
            "Timed out consuming: wanted " + what + ", got " + sink.size() + " records");
      }
      consumer.poll(POLL).forEach(sink::add);
    }
  }

  private static List<ConsumerRecord<String, String>> sortedByPartition(
      List<ConsumerRecord<String, String>> records) {
    Map<Integer, List<ConsumerRecord<String, String>>> byPartition = new HashMap<>();
    for (ConsumerRecord<String, String> record : records) {
      byPartition.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(record);
    }
    List<ConsumerRecord<String, String>> sorted = new ArrayList<>(records.size());
    byPartition.keySet().stream().sorted().forEach(p -> sorted.addAll(byPartition.get(p)));
    return sorted;
  }
}
