package dev.parquetconnect.format.meta;

import java.util.List;
import java.util.Objects;

/**
 * Thrift union {@code ColumnCryptoMetaData}: how an encrypted column chunk is keyed. Its presence
 * on a {@link ColumnChunk} marks the column as encrypted, which this project does not read. For
 * {@link Kind#COLUMN_KEY}, {@code pathInSchema} is required and {@code keyMetadata} optional; the
 * other kinds carry neither (both null).
 */
public record ColumnCryptoMetaData(Kind kind, List<String> pathInSchema, ByteString keyMetadata) {

  /** The union member that is set. */
  public enum Kind {
    /** {@code ENCRYPTION_WITH_FOOTER_KEY} (1). */
    FOOTER_KEY(1),
    /** {@code ENCRYPTION_WITH_COLUMN_KEY} (2). */
    COLUMN_KEY(2),
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

  public ColumnCryptoMetaData {
    Objects.requireNonNull(kind, "kind");
    if (kind == Kind.COLUMN_KEY) {
      pathInSchema = Lists.copy(pathInSchema, "pathInSchema");
    } else if (pathInSchema != null || keyMetadata != null) {
      throw new IllegalArgumentException(kind + " carries no path or key metadata");
    }
  }

  public static final ColumnCryptoMetaData FOOTER_KEY =
      new ColumnCryptoMetaData(Kind.FOOTER_KEY, null, null);
}
