package dev.parquetconnect.format;

/**
 * Valid Parquet that this codec deliberately does not handle: encrypted files, a codec whose
 * library is not available on this platform, an encoding not defined for a type.
 */
public final class UnsupportedFeatureException extends ParquetException {
  private static final long serialVersionUID = 1L;

  public UnsupportedFeatureException(String message) {
    super(message);
  }

  public UnsupportedFeatureException(String message, Throwable cause) {
    super(message, cause);
  }
}
