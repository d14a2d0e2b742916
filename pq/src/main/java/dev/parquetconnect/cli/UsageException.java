package dev.parquetconnect.cli;

/** The command line is wrong (unknown command or option, a missing or malformed argument). */
final class UsageException extends Exception {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
