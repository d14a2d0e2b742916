package dev.parquetconnect.format.compress;

import java.lang.ref.Cleaner;

/**
 * Frees native codec state when a compressor or decompressor is dropped without {@code close()}:
 * zstd-jni's contexts have no finalizer of their own, so a forgotten one would otherwise leak its
 * native memory for the life of the process.
 */
final class NativeCleaner {
  private static final Cleaner CLEANER = Cleaner.create();

  private NativeCleaner() {}

  /** Runs {@code free} once, when {@code owner} becomes unreachable or on {@code clean()}. */
  static Cleaner.Cleanable register(Object owner, Runnable free) {
    return CLEANER.register(owner, free);
  }
}
