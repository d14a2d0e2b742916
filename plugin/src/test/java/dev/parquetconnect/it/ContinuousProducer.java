package dev.parquetconnect.it;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Produces records to a topic at a steady rate in a background thread until {@link #stop()}, for
 * tests that crash a consumer while records keep arriving. Record {@code i} (counted from 0) is
 * {@code recordAt.apply(i)}; where each landed is taken from the broker's acknowledgement, so a
 * test knows the exact value of every (partition, offset) whatever the partitioner or the retries
 * did. Idempotent with {@code acks=all}: nothing is written twice or reordered within a partition.
 */
public final class ContinuousProducer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ContinuousProducer.class);
  private static final long TICK_MILLIS = 20;

  private final KafkaProducer<String, String> producer;
  private final String topic;
  private final int recordsPerSecond;
  private final LongFunction<JsonRecord> recordAt;
  private final Map<Integer, NavigableMap<Long, Long>> placed = new ConcurrentHashMap<>();
  private final AtomicReference<Exception> failure = new AtomicReference<>();
  private final Thread thread;
  private volatile boolean stopping;
  private long sent;
  private Map<Integer, NavigableMap<Long, Long>> result;

  private ContinuousProducer(
      String bootstrapServers, String topic, int recordsPerSecond, LongFunction<JsonRecord> at) {
    Properties config = new Properties();
    config.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.setProperty(ProducerConfig.ACKS_CONFIG, "all");
    config.setProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    config.setProperty(ProducerConfig.LINGER_MS_CONFIG, "5");
    this.producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    this.topic = topic;
    this.recordsPerSecond = recordsPerSecond;
    this.recordAt = at;
    this.thread = new Thread(this::run, "continuous-producer-" + topic);
    thread.setDaemon(true);
  }

  /** Starts producing {@code recordsPerSecond} records a second to {@code topic}. */
  public static ContinuousProducer start(
      String bootstrapServers,
      String topic,
      int recordsPerSecond,
      LongFunction<JsonRecord> recordAt) {
    ContinuousProducer started =
        new ContinuousProducer(bootstrapServers, topic, recordsPerSecond, recordAt);
    started.thread.start();
    return started;
  }

  private void run() {
    long began = System.nanoTime();
    try {
      while (!stopping && failure.get() == null) {
        long due = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began) * recordsPerSecond;
        for (due /= 1000; sent < due && !stopping; sent++) {
          send(sent);
        }
        Thread.sleep(TICK_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failure.compareAndSet(null, e);
    }
  }

  private void send(long index) {
    JsonRecord record = recordAt.apply(index);
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
    producer.send(
        producerRecord,
        (metadata, e) -> {
          if (e != null) {
            failure.compareAndSet(null, e);
          } else {
            placed
                .computeIfAbsent(metadata.partition(), p -> new ConcurrentSkipListMap<>())
                .put(metadata.offset(), index);
          }
        });
  }

  /**
   * Stops producing and waits until every record sent is acknowledged. Returns, for each partition,
   * the index of the record at each offset.
   *
   * @throws IllegalStateException if a record could not be produced
   */
  public Map<Integer, NavigableMap<Long, Long>> stop() {
    if (result != null) {
      return result;
    }
    stopping = true;
    try {
      thread.join(TimeUnit.MINUTES.toMillis(1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while stopping the producer of " + topic, e);
    }
    producer.flush();
    producer.close();
    if (failure.get() != null) {
      throw new IllegalStateException("Producing to " + topic + " failed", failure.get());
    }
    result = new TreeMap<>(placed);
    LOG.info("Produced {} records to {} at {} a second", sent, topic, recordsPerSecond);
    return result;
  }

  @Override
  public void close() {
    if (result == null) {
      stopping = true;
      try {
        thread.join(TimeUnit.MINUTES.toMillis(1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      producer.close();
    }
  }
}
