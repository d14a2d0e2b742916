package dev.parquetconnect.source;

import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import dev.parquetconnect.storage.StoreInput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sink's commit attempts that were rolled back, from its outcome markers ({@code
 * <topics.dir>/_markers/<connector>/<topic>/<partition>/<first offset>-<attempt>.outcome} saying
 * {@code outcome=aborted}, of any connector). A file of such an attempt can be visible for a while:
 * a task that lost its partition may publish one after the rollback, until the sink sweeps it
 * again. The sink keeps the markers of rolled-back attempts, so the source can tell such a file by
 * its name and never replays it.
 *
 * <p>Each outcome is read once: outcomes are created once and never change (compaction only deletes
 * them).
 */
final class RolledBackCommits {
  /** {@code _markers/<connector>/<topic>/<partition>/<20 digits>-<attempt>.outcome}. */
  private static final Pattern OUTCOME =
      Pattern.compile("_markers/[^/]+/([^/]+)/(\\d{1,10})/(\\d{1,20})-(\\d{1,9})\\.outcome");

  private static final int MAX_OUTCOME_BYTES = 64 * 1024;

  /** One attempt: topic as the file names spell it (decoded), partition, first offset, attempt. */
  record Attempt(String topic, int partition, long firstOffset, int attempt) {}

  private final Store store;
  private final String topicsDir;

  /** Outcome key to its attempt when it says aborted, or to null when it says done. */
  private final Map<String, Attempt> read = new HashMap<>();

  RolledBackCommits(Store store, String topicsDir) {
    this.store = store;
    this.topicsDir = topicsDir;
  }

  /** The attempt an outcome marker names, or null when {@code key} is not one. */
  Attempt parse(String key) {
    String relative = topicsDir.isEmpty() ? key : key.substring(topicsDir.length() + 1);
    Matcher m = OUTCOME.matcher(relative);
    if (!m.matches()) {
      return null;
    }
    String topic = SinkFileName.percentDecode(m.group(1)); // encoded as in the file names
    if (topic == null) {
      return null;
    }
    try {
      return new Attempt(
          topic,
          Integer.parseInt(m.group(2)),
          Long.parseLong(m.group(3)),
          Integer.parseInt(m.group(4)));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * The rolled-back attempts among {@code outcomes} (marker keys of a listing, each with the
   * attempt it names); outcomes not seen before are read.
   */
  Set<Attempt> rolledBack(Map<String, Attempt> outcomes) throws IOException {
    read.keySet().retainAll(outcomes.keySet());
    Set<Attempt> aborted = new HashSet<>();
    for (Map.Entry<String, Attempt> e : outcomes.entrySet()) {
      String key = e.getKey();
      if (!read.containsKey(key)) {
        Boolean isAborted = readAborted(key);
        if (isAborted == null) {
          continue; // deleted since the listing (compaction): it says nothing now
        }
        read.put(key, isAborted ? e.getValue() : null);
      }
      Attempt a = read.get(key);
      if (a != null) {
        aborted.add(a);
      }
    }
    return aborted;
  }

  /** Whether an outcome says aborted; null when it is gone. */
  private Boolean readAborted(String key) throws IOException {
    try (StoreInput in = store.open(key)) {
      int length = (int) Math.min(in.length(), MAX_OUTCOME_BYTES);
      byte[] bytes = new byte[length];
      in.readFully(0, bytes, 0, length);
      for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
        if (line.equals("outcome=aborted")) {
          return true;
        }
      }
      return false;
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** Whether a listed entry is an outcome marker (for callers filtering a listing). */
  boolean isOutcome(StoreFile f) {
    return !f.directory() && f.name().endsWith(".outcome") && parse(f.key()) != null;
  }
}
