package dev.parquetconnect.source;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Child JVM of {@link LargeFileReplayIT}: replays one large file through a {@link
 * ParquetSourceTask} (local store, generic mode), checking that ids come back 0, 1, 2... and that
 * every string has its length, and prints {@code records <n>}, {@code checksum <n>} and {@code
 * peakHeap <bytes>} (the heap pools' peak usage).
 */
public final class LargeFileReplayMain {
  private LargeFileReplayMain() {}

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    long expectedRows = Long.parseLong(args[1]);
    Map<String, String> props = new HashMap<>();
    props.put("name", "large-file");
    props.put("store.url", root.toUri().toString());
    props.put("topics.dir", "");
    props.put("mode", "generic");
    props.put("topic", "large");
    TaskDriver driver = new TaskDriver(props).start();
    long records = 0;
    long stringBytes = 0;
    while (records < expectedRows) {
      List<SourceRecord> batch = driver.poll(true);
      if (batch.isEmpty()) {
        throw new IllegalStateException("the task went idle after " + records + " records");
      }
      for (SourceRecord r : batch) {
        Struct v = (Struct) r.value();
        if (v.getInt64("id") != records) {
          throw new IllegalStateException("record " + records + " has id " + v.getInt64("id"));
        }
        for (int c = 0; c < LargeFileReplayIT.STRING_COLUMNS; c++) {
          stringBytes += v.getString("s" + c).length();
        }
        records++;
      }
    }
    driver.stop();
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    // The parent reads these lines: this program's output, not logging.
    System.out.println("records " + records);
    System.out.println("checksum " + stringBytes);
    System.out.println("peakHeap " + peak);
    System.out.println("maxHeap " + Runtime.getRuntime().maxMemory());
  }
}
