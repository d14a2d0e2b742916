package dev.parquetconnect.connect.json;

/**
 * Bytes that are not the JSON a record must hold, with the byte position where reading stopped.
 * Thrown per bad record on untrusted input, so it carries no stack trace (filling one in would cost
 * more than reading the record).
 */
final class MalformedJsonException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int position;

  MalformedJsonException(String reason, int position) {
    super(reason + " at byte " + position, null, false, false);
    this.position = position;
  }

  /** The offset in the record's bytes where the problem was found. */
  int position() {
    return position;
  }
}
