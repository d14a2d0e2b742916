package dev.parquetconnect.quickstart;

import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * {@code bin/produce TOPIC COUNT [BOOTSTRAP]}: sends COUNT example orders as schemaless JSON, keyed
 * {@code order-<id>}, ids 1 to COUNT. The values are a function of the id, so a test (or a reader
 * of the walkthrough) knows exactly what to expect in the files.
 */
public final class Produce {

  private static final String[] COUNTRIES = {"DE", "FR", "NL", "US", "JP"};

  private Produce() {}

  /** The key of order {@code id}. */
  public static String key(int id) {
    return "order-" + id;
  }

  /** The JSON value of order {@code id}: numbers, strings and a boolean, one of five countries. */
  public static String value(int id) {
    long cents = (id * 7919L) % 100_000;
    return String.format(
        Locale.ROOT,
        "{\"id\":%d,\"customer\":\"customer-%d\",\"country\":\"%s\",\"amount\":%d.%02d,\"express\":%b}",
        id,
        id % 50,
        COUNTRIES[id % COUNTRIES.length],
        cents / 100,
        cents % 100,
        id % 3 == 0);
  }

  public static void main(String[] args) throws InterruptedException {
    if (args.length < 2 || args.length > 3) {
      System.err.println("usage: produce TOPIC COUNT [BOOTSTRAP_SERVERS (default 127.0.0.1:9092)]");
      System.exit(2);
    }
    String topic = args[0];
    int count;
    try {
      count = Integer.parseInt(args[1]);
    } catch (NumberFormatException e) {
      count = -1;
    }
    if (count < 1) {
      System.err.println("produce: COUNT must be a positive number, not " + args[1]);
      System.exit(2);
    }
    Properties config = new Properties();
    config.put(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, args.length == 3 ? args[2] : "127.0.0.1:9092");
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
    config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
      Future<RecordMetadata> last = null;
      for (int id = 1; id <= count; id++) {
        last = producer.send(new ProducerRecord<>(topic, key(id), value(id)));
      }
      producer.flush();
      last.get();
    } catch (ExecutionException | RuntimeException e) {
      Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
      System.err.println("produce: sending to " + topic + " failed: " + cause);
      System.exit(1);
    }
    System.out.println("produced " + count + " records to " + topic);
  }
}
