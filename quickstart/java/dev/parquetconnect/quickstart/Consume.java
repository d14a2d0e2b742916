package dev.parquetconnect.quickstart;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * {@code bin/consume TOPIC [IDLE_SECONDS] [BOOTSTRAP]}: prints every committed record of a topic
 * from the beginning as {@code key<TAB>value}, and stops once no record has arrived for
 * IDLE_SECONDS (default 10). No consumer group: it commits nothing and can run any number of times.
 */
public final class Consume {

  private Consume() {}

  public static void main(String[] args) {
    if (args.length < 1 || args.length > 3) {
      System.err.println(
          "usage: consume TOPIC [IDLE_SECONDS (default 10)] [BOOTSTRAP_SERVERS (default "
              + "127.0.0.1:9092)]");
      System.exit(2);
    }
    String topic = args[0];
    Duration idle;
    try {
      idle = Duration.ofSeconds(args.length >= 2 ? Long.parseLong(args[1]) : 10);
    } catch (NumberFormatException e) {
      System.err.println("consume: IDLE_SECONDS must be a number, not " + args[1]);
      System.exit(2);
      return;
    }
    Properties config = new Properties();
    config.put(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args.length == 3 ? args[2] : "127.0.0.1:9092");
    // The replaying source writes in transactions: show committed records only.
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    long count = 0;
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
      List<PartitionInfo> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30));
      if (partitions == null || partitions.isEmpty()) {
        System.err.println("consume: topic " + topic + " does not exist");
        System.exit(1);
      }
      List<TopicPartition> assigned =
          partitions.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
      consumer.assign(assigned);
      consumer.seekToBeginning(assigned);
      long lastRecordAt = System.nanoTime();
      while (System.nanoTime() - lastRecordAt < idle.toNanos()) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
          System.out.println(record.key() + "\t" + record.value());
          count++;
          lastRecordAt = System.nanoTime();
        }
      }
    } catch (RuntimeException e) {
      System.err.println("consume: reading " + topic + " failed: " + e);
      System.exit(1);
    }
    System.err.println("consumed " + count + " records from " + topic);
  }
}
