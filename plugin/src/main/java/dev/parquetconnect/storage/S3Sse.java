package dev.parquetconnect.storage;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;

/**
 * Server-side encryption settings ({@code s3.sse.*}), applied by {@link S3Store}, {@link S3Input}
 * and {@link S3MultipartOutput} to every request that needs them.
 */
final class S3Sse {
  final String type; // none, sse-s3, sse-kms, sse-c
  final String kmsKeyId;
  final Secret customerKey; // base64 of 32 bytes
  final String customerKeyMd5;

  private S3Sse(String type, String kmsKeyId, Secret customerKey, String customerKeyMd5) {
    this.type = type;
    this.kmsKeyId = kmsKeyId;
    this.customerKey = customerKey;
    this.customerKeyMd5 = customerKeyMd5;
  }

  static S3Sse from(StoreSettings settings) {
    String type = settings.string("s3.sse.type", "none").toLowerCase(Locale.ROOT);
    switch (type) {
      case "none", "sse-s3" -> {
        return new S3Sse(type, null, null, null);
      }
      case "sse-kms" -> {
        return new S3Sse(type, settings.string("s3.sse.kms.key.id", null), null, null);
      }
      case "sse-c" -> {
        Secret key = settings.secret("s3.sse.c.key");
        if (key == null) {
          throw new IllegalArgumentException("s3.sse.type=sse-c needs s3.sse.c.key");
        }
        byte[] raw;
        try {
          raw = Base64.getDecoder().decode(key.value());
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("s3.sse.c.key must be base64");
        }
        if (raw.length != 32) {
          throw new IllegalArgumentException("s3.sse.c.key must be 256 bits (32 bytes)");
        }
        return new S3Sse(type, null, key, Base64.getEncoder().encodeToString(md5(raw)));
      }
      default ->
          throw new IllegalArgumentException(
              "s3.sse.type must be none, sse-s3, sse-kms or sse-c, got " + type);
    }
  }

  boolean customer() {
    return customerKey != null;
  }

  static byte[] md5(byte[] b) {
    try {
      return MessageDigest.getInstance("MD5").digest(b);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
