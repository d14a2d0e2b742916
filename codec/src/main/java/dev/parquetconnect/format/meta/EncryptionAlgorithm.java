package dev.parquetconnect.format.meta;

import java.util.Objects;

/**
 * Thrift union {@code EncryptionAlgorithm} with its two members' common fields (both {@code
 * AesGcmV1} and {@code AesGcmCtrV1} carry the same three optional fields). Kept so a reader can
 * tell a plaintext-footer encrypted file from a plain one and refuse it clearly.
 */
public record EncryptionAlgorithm(
    Kind kind, ByteString aadPrefix, ByteString aadFileUnique, Boolean supplyAadPrefix) {

  /** The union member that is set. */
  public enum Kind {
    /** {@code AES_GCM_V1} (1). */
    AES_GCM_V1(1),
    /** {@code AES_GCM_CTR_V1} (2). */
    AES_GCM_CTR_V1(2),
    /** A member a newer writer defined; it cannot be written back. */
    UNRECOGNIZED(-1);

    private final int fieldId;

    Kind(int fieldId) {
      this.fieldId = fieldId;
    }

    public int fieldId() {
      return fieldId;
    }
  }

  public EncryptionAlgorithm {
    Objects.requireNonNull(kind, "kind");
  }
}
