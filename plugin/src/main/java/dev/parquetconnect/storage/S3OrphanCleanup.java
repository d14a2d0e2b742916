package dev.parquetconnect.storage;

import java.io.IOException;
import java.time.Instant;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * What crashed or fenced writers left in an {@link S3Store}: multipart uploads never completed or
 * aborted, and staging objects of files named at their commit that were never copied to their final
 * key or never deleted after it. Both are found by listing and removed once older than the caller's
 * cut-off, so a live writer's are left alone.
 */
final class S3OrphanCleanup {
  private static final Logger LOG = LoggerFactory.getLogger(S3Store.class);

  private final S3Store store;

  S3OrphanCleanup(S3Store store) {
    this.store = store;
  }

  /** See {@link Store#cleanupOrphans}. */
  int cleanup(String prefix, Instant olderThan, Predicate<String> finalName) throws IOException {
    int aborted = abortUploads(store.listPrefix(prefix), prefix, olderThan, finalName);
    if (!finalName.test("")) {
      // Staging objects and their uploads carry no final name: only a cleanup of every name's
      // leftovers takes them.
      return aborted;
    }
    if (!prefix.isEmpty()) {
      // The uploads of files named at their commit go to the staging prefix (under the root,
      // so a cleanup of the root found them above).
      aborted += abortUploads(stagingPrefix(prefix), prefix, olderThan, finalName);
    }
    return aborted + deleteStagingObjects(prefix, olderThan);
  }

  /** The final name of an upload's object: its last segment, none ("") for a staging object. */
  private static String finalNameOfUpload(String objectKey) {
    if (objectKey.contains(S3Store.STAGING_DIR + "/")) {
      return "";
    }
    return objectKey.substring(objectKey.lastIndexOf('/') + 1);
  }

  /** The object-key prefix of the staging objects of files under a store prefix. */
  private String stagingPrefix(String prefix) {
    return (store.rootPrefix.isEmpty() ? "" : store.rootPrefix + "/")
        + S3Store.STAGING_DIR
        + "/"
        + (prefix.isEmpty() ? "" : prefix + "/");
  }

  /** Aborts the multipart uploads under the object-key prefix {@code lp} begun before a time. */
  private int abortUploads(String lp, String prefix, Instant olderThan, Predicate<String> finalName)
      throws IOException {
    int aborted = 0;
    String keyMarker = null;
    String idMarker = null;
    try {
      while (true) {
        ListMultipartUploadsRequest.Builder rb =
            ListMultipartUploadsRequest.builder().bucket(store.bucket).prefix(lp);
        if (keyMarker != null) {
          rb.keyMarker(keyMarker).uploadIdMarker(idMarker);
        }
        ListMultipartUploadsRequest req = rb.build();
        ListMultipartUploadsResponse page =
            store.retrier.call("LIST UPLOADS " + prefix, () -> store.s3.listMultipartUploads(req));
        for (MultipartUpload u : page.uploads()) {
          if (!u.key().startsWith(lp)) {
            continue;
          }
          if (u.initiated() != null && !u.initiated().isBefore(olderThan)) {
            continue;
          }
          if (!finalName.test(finalNameOfUpload(u.key()))) {
            continue;
          }
          store.abortUpload(u.key(), u.uploadId());
          aborted++;
          LOG.info(
              "{}: aborted the orphaned multipart upload of {}", store.url(), store.keyOf(u.key()));
        }
        if (!Boolean.TRUE.equals(page.isTruncated())) {
          break;
        }
        keyMarker = page.nextKeyMarker();
        idMarker = page.nextUploadIdMarker();
      }
    } catch (SdkException e) {
      throw S3Store.io(
          store.url()
              + ": listing the multipart uploads under "
              + (prefix.isEmpty() ? "the root" : prefix)
              + " failed",
          e);
    }
    return aborted;
  }

  /**
   * Deletes the staging objects of files named at their commit under {@code prefix}, last modified
   * before {@code olderThan}: completed uploads whose writer crashed (or was fenced) before copying
   * them to their final key, or after copying and before deleting them. Deleting one fences its
   * writer: the copy of a missing source fails.
   */
  private int deleteStagingObjects(String prefix, Instant olderThan) throws IOException {
    String stagingPrefix = stagingPrefix(prefix);
    int deleted = 0;
    String token = null;
    try {
      do {
        ListObjectsV2Request.Builder rb =
            ListObjectsV2Request.builder().bucket(store.bucket).prefix(stagingPrefix);
        if (token != null) {
          rb.continuationToken(token);
        }
        ListObjectsV2Request req = rb.build();
        ListObjectsV2Response page =
            store.retrier.call("LIST STAGING " + prefix, () -> store.s3.listObjectsV2(req));
        for (S3Object o : page.contents()) {
          if (o.lastModified() != null && !o.lastModified().isBefore(olderThan)) {
            continue;
          }
          store.deleteObject(o.key());
          deleted++;
          LOG.info("{}: deleted the orphaned staging object {}", store.url(), store.keyOf(o.key()));
        }
        token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
      } while (token != null);
    } catch (SdkException e) {
      throw S3Store.io(
          store.url()
              + ": listing the staging objects under "
              + (prefix.isEmpty() ? "the root" : prefix)
              + " failed",
          e);
    }
    return deleted;
  }
}
