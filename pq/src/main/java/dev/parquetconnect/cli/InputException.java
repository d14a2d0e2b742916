package dev.parquetconnect.cli;

/**
 * The inputs are sound but cannot be used as asked (files to merge whose schemas differ): a
 * one-line failure, exit code 1.
 */
final class InputException extends Exception {
  private static final long serialVersionUID = 1L;

  InputException(String message) {
    super(message);
  }
}
