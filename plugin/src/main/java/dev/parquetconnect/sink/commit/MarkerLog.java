package dev.parquetconnect.sink.commit;

import dev.parquetconnect.sink.commit.CommitMarkers.Intent;
import dev.parquetconnect.sink.commit.CommitMarkers.Outcome;
import dev.parquetconnect.sink.commit.MarkerKeys.MarkerName;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import dev.parquetconnect.storage.StoreInput;
import dev.parquetconnect.storage.StoreKeys;
import dev.parquetconnect.storage.StoreOutput;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * The commit markers of one Kafka partition in the store: listing them, reading them, and creating
 * them only if absent (the store's no-overwrite commit is what makes a marker a claim). Public for
 * the tests that read what a sink committed.
 */
public final class MarkerLog {
  /** One commit attempt and which of its two markers exist. */
  public record Attempt(long start, int attempt, boolean hasIntent, boolean hasOutcome)
      implements Comparable<Attempt> {
    @Override
    public int compareTo(Attempt o) {
      int c = Long.compare(start, o.start);
      return c != 0 ? c : Integer.compare(attempt, o.attempt);
    }

    /** Whether this attempt comes after {@code start}/{@code attempt} in commit order. */
    boolean isAfter(long otherStart, int otherAttempt) {
      return start > otherStart || (start == otherStart && attempt > otherAttempt);
    }
  }

  private final Store store;
  private final MarkerKeys keys;
  private final TopicPartition partition;

  public MarkerLog(Store store, MarkerKeys keys, TopicPartition partition) {
    this.store = store;
    this.keys = keys;
    this.partition = partition;
  }

  String directory() {
    return keys.markerDir(partition);
  }

  /** Every commit attempt with a marker, in commit order. */
  public List<Attempt> list() throws IOException {
    TreeMap<Attempt, boolean[]> found = new TreeMap<>();
    for (StoreFile file : store.list(directory(), false)) {
      if (file.directory()) {
        continue;
      }
      MarkerName name = MarkerName.parse(StoreKeys.name(file.key()));
      if (name == null) {
        continue;
      }
      boolean[] kinds =
          found.computeIfAbsent(
              new Attempt(name.start(), name.attempt(), false, false), k -> new boolean[2]);
      kinds[name.intent() ? 0 : 1] = true;
    }
    List<Attempt> attempts = new ArrayList<>(found.size());
    found.forEach(
        (a, kinds) -> attempts.add(new Attempt(a.start(), a.attempt(), kinds[0], kinds[1])));
    return attempts;
  }

  /** Creates the intent; false if an intent of this attempt exists (another writer's). */
  boolean createIntent(Intent intent) throws IOException {
    return createIfAbsent(
        keys.intentKey(partition, intent.start(), intent.attempt()), intent.toBytes());
  }

  /**
   * Creates the outcome unless one exists, and returns the outcome that holds: ours, or the one
   * another writer created first.
   */
  Outcome settle(Outcome outcome) throws IOException {
    String key = keys.outcomeKey(partition, outcome.start(), outcome.attempt());
    if (createIfAbsent(key, outcome.toBytes())) {
      return outcome;
    }
    Outcome existing = readOutcome(outcome.start(), outcome.attempt());
    if (existing == null) {
      throw new IOException(
          key
              + " exists and vanished again: is another writer compacting "
              + "this partition's markers?");
    }
    return existing;
  }

  /** The intent of an attempt, or null when it does not exist. */
  Intent readIntent(long start, int attempt) throws IOException {
    String key = keys.intentKey(partition, start, attempt);
    byte[] bytes = read(key);
    return bytes == null ? null : Intent.parse(bytes, key);
  }

  /** The outcome of an attempt, or null when it does not exist. */
  public Outcome readOutcome(long start, int attempt) throws IOException {
    String key = keys.outcomeKey(partition, start, attempt);
    byte[] bytes = read(key);
    return bytes == null ? null : Outcome.parse(bytes, key);
  }

  /**
   * Deletes both markers of an attempt, the intent first: a crash in between leaves an outcome
   * without intent, which recovery skips (an intent without outcome would look unfinished).
   */
  void delete(Attempt attempt) throws IOException {
    store.delete(keys.intentKey(partition, attempt.start(), attempt.attempt()));
    store.delete(keys.outcomeKey(partition, attempt.start(), attempt.attempt()));
  }

  /** Deletes the intent of an attempt that has no outcome (withdrawn by its own writer). */
  void deleteIntent(long start, int attempt) throws IOException {
    store.delete(keys.intentKey(partition, start, attempt));
  }

  private boolean createIfAbsent(String key, byte[] content) throws IOException {
    try (StoreOutput out = store.create(key)) {
      out.write(content, 0, content.length);
      out.commit();
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    }
  }

  private byte[] read(String key) throws IOException {
    try (StoreInput in = store.open(key)) {
      long length = in.length();
      if (length > 64L * 1024 * 1024) {
        throw new IOException(key + " is " + length + " bytes: not a commit marker");
      }
      byte[] bytes = new byte[(int) length];
      in.readFully(0, bytes, 0, bytes.length);
      return bytes;
    } catch (NoSuchFileException e) {
      return null;
    }
  }
}
