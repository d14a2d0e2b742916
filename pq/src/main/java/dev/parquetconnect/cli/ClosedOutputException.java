package dev.parquetconnect.cli;

import java.io.IOException;

/**
 * Standard output went away ({@code pq cat f | head}): the reader of our output has all it wanted,
 * so the command stops quietly instead of reporting an error.
 */
final class ClosedOutputException extends IOException {
  private static final long serialVersionUID = 1L;

  ClosedOutputException(IOException cause) {
    super("standard output is closed", cause);
  }
}
