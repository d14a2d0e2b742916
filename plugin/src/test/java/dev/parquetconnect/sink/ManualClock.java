package dev.parquetconnect.sink;

/**
 * A clock the test moves. It starts at the real time, because the stores stamp files with the real
 * clock and orphan clean-up compares the two.
 */
final class ManualClock implements SinkClock {
  private long millis = System.currentTimeMillis();
  private long nanos = 1_000_000_000L;

  @Override
  public long wallMillis() {
    return millis;
  }

  @Override
  public long nanos() {
    return nanos;
  }

  void advance(long ms) {
    millis += ms;
    nanos += ms * 1_000_000L;
  }
}
