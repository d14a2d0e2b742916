package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.ParquetException;
import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TType;

/**
 * Reads and writes the modular-encryption fields: the {@code EncryptionAlgorithm} union of a
 * plaintext footer and the {@code ColumnCryptoMetaData} union of a column chunk. This project does
 * not decrypt; it reads them so readers can refuse encrypted files clearly.
 */
final class EncryptionCodec {
  private static final String[] COLUMN_KEY_FIELDS = {null, "path_in_schema", "key_metadata"};
  private static final int REQUIRED_1 = 1 << 1;

  private EncryptionCodec() {}

  static EncryptionAlgorithm readEncryptionAlgorithm(ThriftInput in)
      throws TException, ParquetException {
    in.structBegin();
    EncryptionAlgorithm result = null;
    int members = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      members++;
      int id = ThriftInput.id(f);
      if ((id == 1 || id == 2) && ThriftInput.type(f) == TType.STRUCT) {
        result =
            readAesGcm(
                in,
                id == 1
                    ? EncryptionAlgorithm.Kind.AES_GCM_V1
                    : EncryptionAlgorithm.Kind.AES_GCM_CTR_V1);
      } else {
        in.skip(ThriftInput.type(f));
        result = new EncryptionAlgorithm(EncryptionAlgorithm.Kind.UNRECOGNIZED, null, null, null);
      }
    }
    in.structEnd();
    in.checkOneMember("EncryptionAlgorithm", members);
    return result;
  }

  /** {@code AesGcmV1} and {@code AesGcmCtrV1}, which have the same fields. */
  private static EncryptionAlgorithm readAesGcm(ThriftInput in, EncryptionAlgorithm.Kind kind)
      throws TException, ParquetException {
    in.structBegin();
    ByteString aadPrefix = null;
    ByteString aadFileUnique = null;
    Boolean supplyAadPrefix = null;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.STRING)) {
            aadPrefix = in.binary();
          }
        }
        case 2 -> {
          if (in.accept(f, TType.STRING)) {
            aadFileUnique = in.binary();
          }
        }
        case 3 -> {
          if (in.accept(f, TType.BOOL)) {
            supplyAadPrefix = in.bool();
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.structEnd();
    return new EncryptionAlgorithm(kind, aadPrefix, aadFileUnique, supplyAadPrefix);
  }

  static void writeEncryptionAlgorithm(ThriftOutput out, EncryptionAlgorithm a) throws TException {
    if (a.kind() == EncryptionAlgorithm.Kind.UNRECOGNIZED) {
      throw new IllegalArgumentException("cannot write an unrecognised encryption algorithm");
    }
    out.structBegin();
    out.fieldBegin(TType.STRUCT, a.kind().fieldId());
    out.structBegin();
    out.optBinary(1, a.aadPrefix());
    out.optBinary(2, a.aadFileUnique());
    out.optBool(3, a.supplyAadPrefix());
    out.structEnd();
    out.structEnd();
  }

  static ColumnCryptoMetaData readColumnCryptoMetaData(ThriftInput in)
      throws TException, ParquetException {
    in.structBegin();
    ColumnCryptoMetaData result = null;
    int members = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      members++;
      int id = ThriftInput.id(f);
      if (id == 1 && ThriftInput.type(f) == TType.STRUCT) {
        in.skip(TType.STRUCT);
        result = ColumnCryptoMetaData.FOOTER_KEY;
      } else if (id == 2 && ThriftInput.type(f) == TType.STRUCT) {
        result = readColumnKey(in);
      } else {
        in.skip(ThriftInput.type(f));
        result = new ColumnCryptoMetaData(ColumnCryptoMetaData.Kind.UNRECOGNIZED, null, null);
      }
    }
    in.structEnd();
    in.checkOneMember("ColumnCryptoMetaData", members);
    return result;
  }

  private static ColumnCryptoMetaData readColumnKey(ThriftInput in)
      throws TException, ParquetException {
    in.structBegin();
    List<String> path = null;
    ByteString keyMetadata = null;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.LIST)) {
            path = in.stringList();
            seen |= path != null ? 1 << 1 : 0;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.STRING)) {
            keyMetadata = in.binary();
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, REQUIRED_1, "EncryptionWithColumnKey", COLUMN_KEY_FIELDS);
    in.structEnd();
    return new ColumnCryptoMetaData(ColumnCryptoMetaData.Kind.COLUMN_KEY, path, keyMetadata);
  }

  static void writeColumnCryptoMetaData(ThriftOutput out, ColumnCryptoMetaData c)
      throws TException {
    switch (c.kind()) {
      case FOOTER_KEY -> out.emptyStructUnion(1);
      case COLUMN_KEY -> {
        out.structBegin();
        out.fieldBegin(TType.STRUCT, 2);
        out.structBegin();
        out.stringList(1, c.pathInSchema());
        out.optBinary(2, c.keyMetadata());
        out.structEnd();
        out.structEnd();
      }
      default -> throw new IllegalArgumentException("cannot write unrecognised crypto metadata");
    }
  }
}
