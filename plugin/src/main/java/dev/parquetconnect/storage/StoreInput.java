package dev.parquetconnect.storage;

import dev.parquetconnect.format.io.SeekableInput;

/** A committed file opened for positioned reads; counts the bytes it transfers. */
public interface StoreInput extends SeekableInput {
  /** Payload bytes transferred by {@link #readFully} so far (not counting protocol overhead). */
  long bytesRead();
}
