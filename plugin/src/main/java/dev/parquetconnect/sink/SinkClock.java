package dev.parquetconnect.sink;

/** The task's clocks, replaceable in tests. */
public interface SinkClock {
  SinkClock SYSTEM =
      new SinkClock() {
        @Override
        public long wallMillis() {
          return System.currentTimeMillis();
        }

        @Override
        public long nanos() {
          return System.nanoTime();
        }
      };

  /** Milliseconds since the epoch: scheduled rotation, wall-clock timestamps, marker times. */
  long wallMillis();

  /** A monotonic clock for timeouts. */
  long nanos();
}
