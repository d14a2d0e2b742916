package dev.parquetconnect.storage;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;

/**
 * The server-side copies of an {@link S3Store}: a move, and the commit of a file named at its
 * commit (its staging object copied to the final key). One CopyObject up to {@code
 * s3.copy.part.size} (at most 5 GiB), UploadPartCopy parts above, never replacing the destination
 * where the store honours {@code If-None-Match}, with the store's encryption settings.
 */
final class S3Copy {
  private final S3Store store;
  private final long copyPartSize;

  S3Copy(S3Store store, long copyPartSize) {
    this.store = store;
    this.copyPartSize = copyPartSize;
  }

  /**
   * A server-side copy that never replaces {@code dst} where the store honours {@code
   * If-None-Match} (one CopyObject, or UploadPartCopy parts above {@code s3.copy.part.size} or 5
   * GiB). The object under {@code dst} appears at once, whole. User metadata is copied; a multipart
   * copy sets {@code writerToken} (when not null) as CopyObject would have copied it.
   */
  void copy(String src, String dst, long size, String from, String to, String writerToken)
      throws IOException {
    if (size <= Math.min(S3Store.MAX_SINGLE_COPY, copyPartSize)) {
      CopyObjectRequest.Builder b =
          CopyObjectRequest.builder()
              .sourceBucket(store.bucket)
              .sourceKey(src)
              .destinationBucket(store.bucket)
              .destinationKey(dst);
      if (store.conditionalWrites) {
        b.ifNoneMatch("*");
      }
      applySse(b);
      CopyObjectRequest req = b.build();
      store.retrier.call("COPY " + from + " -> " + to, () -> store.s3.copyObject(req));
    } else {
      multipartCopy(src, dst, size, to, writerToken);
    }
  }

  private void applySse(CopyObjectRequest.Builder b) {
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
              .sseCustomerKeyMD5(store.sse.customerKeyMd5)
              .copySourceSSECustomerAlgorithm("AES256")
              .copySourceSSECustomerKey(store.sse.customerKey.value())
              .copySourceSSECustomerKeyMD5(store.sse.customerKeyMd5);
      default -> {}
    }
  }

  private void multipartCopy(String src, String dst, long size, String to, String writerToken)
      throws IOException {
    String uploadId = store.createUpload(dst, writerToken, to);
    try {
      List<CompletedPart> parts = new ArrayList<>();
      int n = 1;
      for (long pos = 0; pos < size; pos += copyPartSize, n++) {
        long end = Math.min(size, pos + copyPartSize) - 1;
        UploadPartCopyRequest.Builder b =
            UploadPartCopyRequest.builder()
                .sourceBucket(store.bucket)
                .sourceKey(src)
                .destinationBucket(store.bucket)
                .destinationKey(dst)
                .uploadId(uploadId)
                .partNumber(n)
                .copySourceRange("bytes=" + pos + "-" + end);
        if (store.sse.customer()) {
          b.sseCustomerAlgorithm("AES256")
              .sseCustomerKey(store.sse.customerKey.value())
              .sseCustomerKeyMD5(store.sse.customerKeyMd5)
              .copySourceSSECustomerAlgorithm("AES256")
              .copySourceSSECustomerKey(store.sse.customerKey.value())
              .copySourceSSECustomerKeyMD5(store.sse.customerKeyMd5);
        }
        UploadPartCopyRequest req = b.build();
        int partNumber = n;
        String etag =
            store.retrier.call(
                "COPY PART " + n + " of " + to,
                () -> store.s3.uploadPartCopy(req).copyPartResult().eTag());
        parts.add(CompletedPart.builder().partNumber(partNumber).eTag(etag).build());
      }
      completeUpload(dst, uploadId, parts, to);
    } catch (IOException | RuntimeException e) {
      store.abortUpload(dst, uploadId);
      throw e;
    }
  }

  /** Completes the upload of a multipart copy, with the conditional header when enabled. */
  private void completeUpload(
      String objectKey, String uploadId, List<CompletedPart> parts, String key) throws IOException {
    CompleteMultipartUploadRequest.Builder b =
        CompleteMultipartUploadRequest.builder()
            .bucket(store.bucket)
            .key(objectKey)
            .uploadId(uploadId)
            .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build());
    if (store.conditionalWrites) {
      b.ifNoneMatch("*");
    }
    CompleteMultipartUploadRequest req = b.build();
    store.retrier.call("COMPLETE " + key, () -> store.s3.completeMultipartUpload(req));
  }
}
