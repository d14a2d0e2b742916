package dev.parquetconnect.storage;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * A file streamed out as a multipart upload (or one PutObject when it fits in one part). With a
 * staging key ({@link S3Store#createNamedAtCommit}) the upload goes there and the commit copies the
 * completed object to the key given at the commit; without, the upload's key is its own.
 */
final class S3MultipartOutput extends TrackedOutput {
  private static final Logger LOG = LoggerFactory.getLogger(S3Store.class);

  private final S3Store store;
  private final String objectKey;

  /** The hidden object a multipart upload goes to when the name is chosen at commit; null. */
  private final String stagingKey;

  private final String token = StoreKeys.randomToken();
  private byte[] buf;
  private int len;
  private String uploadId;
  private final List<CompletedPart> parts = new ArrayList<>();
  private final List<String> partEtags = new ArrayList<>();

  /** The staging object exists (its upload completed) and must be deleted. */
  private boolean stagingCompleted;

  S3MultipartOutput(S3Store store, String key, String objectKey, String stagingKey) {
    super(key, store.url(key));
    this.store = store;
    this.buf = new byte[Math.min(store.partSize, 64 * 1024)];
    this.objectKey = objectKey;
    this.stagingKey = stagingKey;
  }

  /** Where the multipart upload goes. */
  private String uploadKey() {
    return stagingKey != null ? stagingKey : objectKey;
  }

  /** The heap this output holds: its part buffer. */
  @Override
  public long heapBytes() {
    return buf == null ? 0 : buf.length;
  }

  @Override
  public void write(byte[] b, int off, int n) throws IOException {
    checkOpen();
    java.util.Objects.checkFromIndexSize(off, n, b.length);
    try {
      while (n > 0) {
        if (len == buf.length) {
          if (buf.length < store.partSize) {
            buf = java.util.Arrays.copyOf(buf, (int) Math.min(store.partSize, 2L * buf.length));
          } else {
            uploadPart();
          }
        }
        int c = Math.min(n, buf.length - len);
        System.arraycopy(b, off, buf, len, c);
        len += c;
        off += c;
        n -= c;
        wrote(c);
      }
    } catch (IOException | RuntimeException e) {
      fail();
      throw e;
    }
  }

  private void uploadPart() throws IOException {
    if (uploadId == null) {
      uploadId = store.createUpload(uploadKey(), token, key());
    }
    int partNumber = parts.size() + 1;
    UploadPartRequest.Builder b =
        UploadPartRequest.builder()
            .bucket(store.bucket)
            .key(uploadKey())
            .uploadId(uploadId)
            .partNumber(partNumber)
            .contentLength((long) len);
    if (store.sse.customer()) {
      b.sseCustomerAlgorithm("AES256")
          .sseCustomerKey(store.sse.customerKey.value())
          .sseCustomerKeyMD5(store.sse.customerKeyMd5);
    }
    UploadPartRequest req = b.build();
    byte[] data = buf;
    int size = len;
    String etag;
    try {
      etag =
          store.retrier.call(
              "UPLOAD PART " + partNumber + " of " + key(),
              () -> store.s3.uploadPart(req, body(data, size)).eTag());
    } catch (S3Exception e) {
      if (S3Store.notFound(e)) {
        throw new Retrier.FencedException(
            store.url(key())
                + ": the multipart upload is gone "
                + "(aborted by a cleanup: this writer was fenced)");
      }
      throw S3Store.io(store.url(key()) + ": uploading part " + partNumber + " failed", e);
    } catch (SdkException e) {
      throw S3Store.io(store.url(key()) + ": uploading part " + partNumber + " failed", e);
    }
    parts.add(CompletedPart.builder().partNumber(partNumber).eTag(etag).build());
    partEtags.add(etag);
    len = 0;
  }

  private RequestBody body(byte[] data, int size) {
    // No copy of the part: the SDK opens a fresh stream over the buffer for each attempt.
    return RequestBody.fromContentProvider(
        () -> new ByteArrayInputStream(data, 0, size), size, "application/octet-stream");
  }

  @Override
  public void commitAs(String finalKey) throws IOException {
    checkOpen();
    String finalObjectKey = objectKey;
    if (!finalKey.equals(key())) {
      checkSameDirectory(key(), finalKey);
      finalObjectKey = store.objectKey(finalKey);
      if (stagingKey == null && uploadId != null) {
        throw new IllegalArgumentException(
            store.url(key())
                + ": its multipart upload has "
                + "started under its own key; only a file created with createNamedAtCommit can be "
                + "renamed");
      }
    }
    markClosed();
    try {
      if (store.head(finalKey) != null) {
        throw new FileAlreadyExistsException(store.url(finalKey), null, "exists; not replaced");
      }
      if (uploadId == null) {
        putWhole(finalKey, finalObjectKey);
      } else {
        if (len > 0) {
          uploadPart();
        }
        buf = null;
        complete();
        if (stagingKey != null) {
          copyStaged(finalKey, finalObjectKey);
        }
      }
      markCommitted();
    } catch (IOException | RuntimeException e) {
      discard();
      throw e;
    } finally {
      buf = null;
    }
    if (stagingCompleted) {
      // The file is committed; a staging object left behind is an orphan cleanupOrphans
      // deletes, so a failure here must not fail the commit.
      try {
        store.deleteObject(stagingKey);
        stagingCompleted = false;
      } catch (IOException | RuntimeException e) {
        LOG.warn(
            "{}: deleting the staging object of {} failed ({}); cleanupOrphans will",
            store.url(),
            finalKey,
            Retrier.describe(e));
      }
    }
  }

  private void putWhole(String finalKey, String finalObjectKey) throws IOException {
    PutObjectRequest.Builder b =
        PutObjectRequest.builder()
            .bucket(store.bucket)
            .key(finalObjectKey)
            .contentLength((long) len)
            .contentType("application/octet-stream")
            .metadata(Map.of(S3Store.WRITER_META, token));
    if (store.conditionalWrites) {
      b.ifNoneMatch("*");
    }
    switch (store.sse.type) {
      case "sse-s3" -> b.serverSideEncryption(ServerSideEncryption.AES256);
      case "sse-kms" -> {
        b.serverSideEncryption(ServerSideEncryption.AWS_KMS);
        if (store.sse.kmsKeyId != null) {
          b.ssekmsKeyId(store.sse.kmsKeyId);
        }
      }
      case "sse-c" ->
          b.sseCustomerAlgorithm("AES256")
              .sseCustomerKey(store.sse.customerKey.value())
              .sseCustomerKeyMD5(store.sse.customerKeyMd5);
      default -> {}
    }
    PutObjectRequest req = b.build();
    byte[] data = buf;
    int size = len;
    try {
      store.retrier.call("PUT " + finalKey, () -> store.s3.putObject(req, body(data, size)));
    } catch (S3Exception e) {
      if (e.statusCode() == 412) {
        if (isOurs(finalObjectKey, finalKey, null)) {
          LOG.info(
              "{}: the object was already created by an earlier attempt of this writer "
                  + "whose response was lost: committed",
              store.url(finalKey));
          return;
        }
        throw new FileAlreadyExistsException(store.url(finalKey), null, "exists; not replaced");
      }
      throw S3Store.io(store.url(finalKey) + ": upload failed", e);
    } catch (SdkException e) {
      throw S3Store.io(store.url(finalKey) + ": upload failed", e);
    }
  }

  /** Completes the multipart upload (to the staging object or the output's own key). */
  private void complete() throws IOException {
    String target = uploadKey();
    String name = stagingKey != null ? "the staging object of " + key() : key();
    CompleteMultipartUploadRequest.Builder b =
        CompleteMultipartUploadRequest.builder()
            .bucket(store.bucket)
            .key(target)
            .uploadId(uploadId)
            .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build());
    if (store.conditionalWrites) {
      b.ifNoneMatch("*");
    }
    if (store.sse.customer()) {
      b.sseCustomerAlgorithm("AES256")
          .sseCustomerKey(store.sse.customerKey.value())
          .sseCustomerKeyMD5(store.sse.customerKeyMd5);
    }
    CompleteMultipartUploadRequest req = b.build();
    try {
      store.retrier.call("COMPLETE " + name, () -> store.s3.completeMultipartUpload(req));
    } catch (S3Exception e) {
      if (S3Store.isInvalidPart(e) && isOurs(target, name, expectedMultipartEtag())) {
        // A retried completion after a lost or cut-off response: some stores answer that the
        // parts are gone (they now form the object) instead of NoSuchUpload.
        LOG.info(
            "{}: the upload was already completed by an earlier attempt of this writer "
                + "whose response was lost: committed",
            store.url(key()));
        completed();
        return;
      }
      if (e.statusCode() == 404 || e.statusCode() == 412) {
        // The upload is gone or the key exists: either an earlier attempt of ours completed
        // it (its response was lost) or someone else won.
        if (isOurs(target, name, expectedMultipartEtag())) {
          LOG.info(
              "{}: the upload was already completed by an earlier attempt of this writer "
                  + "whose response was lost: committed",
              store.url(key()));
          completed();
          return;
        }
        uploadId = e.statusCode() == 404 ? null : uploadId;
        if (e.statusCode() == 412) {
          throw new FileAlreadyExistsException(store.url(key()), null, "exists; not replaced");
        }
        throw new Retrier.FencedException(
            store.url(key())
                + ": the multipart upload is gone "
                + "(aborted by a cleanup: this writer was fenced)");
      }
      throw S3Store.io(store.url(key()) + ": completing the upload failed", e);
    } catch (SdkException e) {
      throw S3Store.io(store.url(key()) + ": completing the upload failed", e);
    }
    completed();
  }

  private void completed() {
    uploadId = null;
    stagingCompleted = stagingKey != null;
  }

  /**
   * Makes the completed staging object appear under the final key: a server-side copy, which never
   * replaces an existing object where the store honours {@code If-None-Match} (the HEAD before the
   * commit covers the others) and carries this writer's token in its metadata, so a retried copy
   * whose first response was lost recognises its own object.
   */
  private void copyStaged(String finalKey, String finalObjectKey) throws IOException {
    try {
      store.copy(
          stagingKey,
          finalObjectKey,
          bytesWritten(),
          "the staging object of " + finalKey,
          finalKey,
          token);
    } catch (S3Exception e) {
      if (e.statusCode() == 412 || e.statusCode() == 404) {
        if (isOurs(finalObjectKey, finalKey, null)) {
          LOG.info(
              "{}: the object was already copied by an earlier attempt of this writer "
                  + "whose response was lost: committed",
              store.url(finalKey));
          return;
        }
        if (e.statusCode() == 412) {
          throw new FileAlreadyExistsException(store.url(finalKey), null, "exists; not replaced");
        }
        stagingCompleted = false;
        throw new Retrier.FencedException(
            store.url(finalKey)
                + ": the staging object is gone "
                + "(deleted by a cleanup: this writer was fenced)");
      }
      throw S3Store.io(store.url(finalKey) + ": copying the staging object failed", e);
    } catch (SdkException e) {
      throw S3Store.io(store.url(finalKey) + ": copying the staging object failed", e);
    }
  }

  /** Whether the object under {@code ok} is the one this writer wrote. */
  private boolean isOurs(String ok, String name, String expectedEtag) throws IOException {
    HeadObjectResponse h = store.headObject(ok, name);
    if (h == null) {
      return false;
    }
    if (token.equals(h.metadata().get(S3Store.WRITER_META))) {
      return true;
    }
    return expectedEtag != null && expectedEtag.equals(unquote(h.eTag()));
  }

  /** The ETag S3 gives a multipart object: MD5 of the parts' binary MD5s, "-", part count. */
  private String expectedMultipartEtag() {
    try {
      MessageDigest md = MessageDigest.getInstance("MD5");
      for (String e : partEtags) {
        String hex = unquote(e);
        if (hex == null || hex.length() != 32) {
          return null;
        }
        md.update(HexFormat.of().parseHex(hex));
      }
      return HexFormat.of().formatHex(md.digest()) + "-" + partEtags.size();
    } catch (NoSuchAlgorithmException | IllegalArgumentException e) {
      return null;
    }
  }

  private void fail() {
    markClosed();
    discard();
  }

  @Override
  void discard() {
    buf = null;
    if (uploadId != null) {
      String id = uploadId;
      uploadId = null;
      store.abortUpload(uploadKey(), id);
    }
    if (stagingCompleted) {
      stagingCompleted = false;
      try {
        store.deleteObject(stagingKey);
      } catch (IOException | RuntimeException e) {
        LOG.warn(
            "{}: deleting the staging object of {} failed ({}); cleanupOrphans will",
            store.url(),
            key(),
            Retrier.describe(e));
      }
    }
  }

  private static String unquote(String etag) {
    if (etag == null) {
      return null;
    }
    String e = etag.trim();
    if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"")) {
      e = e.substring(1, e.length() - 1);
    }
    return e.toLowerCase(Locale.ROOT);
  }
}
