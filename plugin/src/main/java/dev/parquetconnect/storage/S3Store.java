package dev.parquetconnect.storage;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * An S3 bucket and prefix ({@code s3://bucket/prefix}) on AWS or an S3-compatible store (MinIO,
 * Ceph, R2, S3Proxy...), through the AWS SDK v2 synchronous client on the Apache HTTP client 5.
 *
 * <p>Writes stream out as multipart uploads: a part is uploaded as soon as a part-size buffer fills
 * ({@code s3.part.size}, default 8 MiB, at least 5 MiB), so an open file holds about one part of
 * heap. {@code commit()} uploads the last part and completes the upload with {@code If-None-Match:
 * *} (a file smaller than one part is a single PutObject with the same header); before that it
 * checks with a HEAD that the key is free, for stores that ignore the header. A commit whose
 * response was lost and whose retry finds the upload gone (or gets 412) checks the object: if it
 * carries this writer's token ({@code x-amz-meta-pqc-writer}) or the ETag of exactly these parts,
 * the commit succeeded. Reads are ranged GETs pinned to the ETag seen at open. Every call goes
 * through {@link Retrier}; the SDK's own retries are off.
 *
 * <p>By role: {@link S3ClientSetup} builds the client (HTTP, endpoint, credentials), {@link S3Sse}
 * holds the encryption settings, {@link S3Input} reads and {@link S3MultipartOutput} writes; this
 * class holds what they share (bucket, root, retries) and the listing and delete calls; {@link
 * S3Copy} makes the server-side copies of a move or a commit, {@link S3OrphanCleanup} aborts and
 * deletes what crashed writers left.
 *
 * <p>See docs/storage.md for every setting.
 */
public final class S3Store implements Store {
  private static final Logger LOG = LoggerFactory.getLogger(S3Store.class);

  static final int MIN_PART_SIZE = 5 * 1024 * 1024;
  static final int DEFAULT_PART_SIZE = 8 * 1024 * 1024;
  static final int MAX_PART_SIZE = 512 * 1024 * 1024;
  static final long MAX_SINGLE_COPY = 5L * 1024 * 1024 * 1024;
  static final String WRITER_META = "pqc-writer";

  /**
   * The hidden prefix (under the root) of the staging objects of files named at their commit:
   * {@code .tmp-pqc-staging/<directory>/<32 hex>}. Outside every data directory and starting with
   * {@code .}, so no reader or engine glob sees one, and {@link #cleanupOrphans} lists only them.
   */
  static final String STAGING_DIR = StoreKeys.TEMP_PREFIX + "staging";

  final String bucket;
  final String rootPrefix; // "" or "a/b"
  private final String url;
  final S3Client s3;
  private final SdkHttpClient http;
  private final AutoCloseable credentialsToClose;
  final Retrier retrier;
  final int partSize;
  private final S3Copy copier;
  private final S3OrphanCleanup orphans;
  final boolean conditionalWrites;
  final S3Sse sse;

  S3Store(URI uri, StoreSettings settings) throws IOException {
    if (uri.getRawUserInfo() != null) {
      throw new IllegalArgumentException("credentials in a store URL are not allowed");
    }
    this.bucket = uri.getAuthority();
    if (bucket == null || bucket.isEmpty()) {
      throw new IllegalArgumentException("an S3 store URL needs a bucket: s3://bucket/prefix");
    }
    String p = uri.getPath() == null ? "" : uri.getPath();
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    this.rootPrefix = StoreKeys.checkPrefix(p);
    this.url = "s3://" + bucket + (rootPrefix.isEmpty() ? "" : "/" + rootPrefix);

    long part = settings.longValue("s3.part.size", DEFAULT_PART_SIZE);
    if (part < MIN_PART_SIZE || part > MAX_PART_SIZE) {
      throw new IllegalArgumentException(
          "s3.part.size must be between "
              + MIN_PART_SIZE
              + " and "
              + MAX_PART_SIZE
              + " bytes, got "
              + part);
    }
    this.partSize = (int) part;
    // UploadPartCopy takes parts of 5 MiB to 5 GiB.
    long copyPartSize =
        Math.min(
            MAX_SINGLE_COPY,
            Math.max(MIN_PART_SIZE, settings.longValue("s3.copy.part.size", 512L * 1024 * 1024)));
    this.conditionalWrites = settings.bool("s3.conditional.writes", true);
    this.retrier =
        new Retrier(
            settings.intValue("s3.retry.max.attempts", 10),
            settings.longValue("s3.retry.base.delay.ms", 100),
            settings.longValue("s3.retry.max.delay.ms", 10_000),
            url);
    this.sse = S3Sse.from(settings);
    this.copier = new S3Copy(this, copyPartSize);
    this.orphans = new S3OrphanCleanup(this);

    S3ClientSetup client = S3ClientSetup.open(settings);
    this.s3 = client.s3;
    this.http = client.http;
    this.credentialsToClose = client.credentialsToClose;
    String endpoint = settings.string("s3.endpoint", null);
    String region = settings.string("s3.region", null);
    LOG.info(
        "{}: opened (endpoint {}, region {}, path-style {}, part size {} bytes, "
            + "conditional writes {}, encryption {}, credentials {})",
        url,
        endpoint == null ? "AWS" : endpoint,
        region == null ? "default" : region,
        settings.bool("s3.path.style.access", false),
        partSize,
        conditionalWrites,
        sse.type,
        S3ClientSetup.credentialsKind(settings));
  }

  @Override
  public String url() {
    return url;
  }

  String url(String key) {
    return url + "/" + key;
  }

  String objectKey(String key) {
    StoreKeys.checkKey(key);
    String k = rootPrefix.isEmpty() ? key : rootPrefix + "/" + key;
    if (k.getBytes(StandardCharsets.UTF_8).length > StoreKeys.MAX_KEY_BYTES) {
      throw new IllegalArgumentException(
          "store key '"
              + StoreKeys.printable(key)
              + "' with the root prefix is longer than "
              + StoreKeys.MAX_KEY_BYTES
              + " bytes");
    }
    return k;
  }

  /** The object-key prefix of everything under a store prefix, ending in "/" (or ""). */
  String listPrefix(String prefix) {
    StoreKeys.checkPrefix(prefix);
    String p =
        rootPrefix.isEmpty() ? prefix : prefix.isEmpty() ? rootPrefix : rootPrefix + "/" + prefix;
    return p.isEmpty() ? "" : p + "/";
  }

  String keyOf(String objectKey) {
    return rootPrefix.isEmpty() ? objectKey : objectKey.substring(rootPrefix.length() + 1);
  }

  static IOException io(String what, SdkException e) {
    return new IOException(what + ": " + e.getMessage(), e);
  }

  /** S3's answer to a completion naming parts the upload does not (or no longer) hold. */
  static boolean isInvalidPart(S3Exception e) {
    String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
    return e.statusCode() == 400 && ("InvalidPart".equals(code) || "InvalidPartOrder".equals(code));
  }

  static boolean notFound(S3Exception e) {
    return e.statusCode() == 404;
  }

  HeadObjectResponse head(String key) throws IOException {
    return headObject(objectKey(key), key);
  }

  /** HEAD of an object by its full object key; {@code key} names it in messages. */
  HeadObjectResponse headObject(String ok, String key) throws IOException {
    try {
      return retrier.call("HEAD " + key, () -> s3.headObject(headRequest(ok)));
    } catch (S3Exception e) {
      if (notFound(e)) {
        return null;
      }
      throw io(url(key) + ": HEAD failed", e);
    } catch (SdkException e) {
      throw io(url(key) + ": HEAD failed", e);
    }
  }

  HeadObjectRequest headRequest(String objectKey) {
    HeadObjectRequest.Builder b = HeadObjectRequest.builder().bucket(bucket).key(objectKey);
    if (sse.customer()) {
      b.sseCustomerAlgorithm("AES256")
          .sseCustomerKey(sse.customerKey.value())
          .sseCustomerKeyMD5(sse.customerKeyMd5);
    }
    return b.build();
  }

  @Override
  public StoreInput open(String key) throws IOException {
    HeadObjectResponse h = head(key);
    if (h == null) {
      throw new NoSuchFileException(url(key), null, "no such file in the store");
    }
    return new S3Input(this, key, objectKey(key), h.contentLength(), h.eTag());
  }

  @Override
  public StoreOutput create(String key) {
    return new S3MultipartOutput(this, key, objectKey(key), null);
  }

  @Override
  public StoreOutput createNamedAtCommit(String key) {
    String ok = objectKey(key);
    String parent = StoreKeys.parent(key);
    String staging =
        (rootPrefix.isEmpty() ? "" : rootPrefix + "/")
            + STAGING_DIR
            + "/"
            + (parent.isEmpty() ? "" : parent + "/")
            + StoreKeys.randomToken();
    if (staging.getBytes(StandardCharsets.UTF_8).length > StoreKeys.MAX_KEY_BYTES) {
      throw new IllegalArgumentException(
          "store key '"
              + StoreKeys.printable(key)
              + "' leaves no "
              + "room for its staging object within "
              + StoreKeys.MAX_KEY_BYTES
              + " bytes");
    }
    return new S3MultipartOutput(this, key, ok, staging);
  }

  /** Whether an object key (below the root) is one of the hidden staging objects. */
  private static boolean isStaging(String key) {
    return key.equals(STAGING_DIR) || key.startsWith(STAGING_DIR + "/");
  }

  @Override
  public List<StoreFile> list(String prefix, boolean recursive) throws IOException {
    String lp = listPrefix(prefix);
    List<StoreFile> out = new ArrayList<>();
    int skipped = 0;
    String token = null;
    try {
      do {
        ListObjectsV2Request.Builder rb = ListObjectsV2Request.builder().bucket(bucket).prefix(lp);
        if (!recursive) {
          rb.delimiter("/");
        }
        if (token != null) {
          rb.continuationToken(token);
        }
        ListObjectsV2Request req = rb.build();
        ListObjectsV2Response page = retrier.call("LIST " + prefix, () -> s3.listObjectsV2(req));
        for (S3Object o : page.contents()) {
          if (o.key().endsWith("/")) {
            continue; // a directory marker some tools create
          }
          String key = keyOf(o.key());
          if (StoreKeys.isTemporaryName(StoreKeys.name(key)) || isStaging(key)) {
            continue;
          }
          if (!StoreKeys.isValidKey(key)) {
            skipped++;
            continue;
          }
          out.add(new StoreFile(key, o.size(), o.lastModified(), false));
        }
        for (CommonPrefix cp : page.commonPrefixes()) {
          String key = keyOf(cp.prefix().substring(0, cp.prefix().length() - 1));
          if (isStaging(key)) {
            continue;
          }
          if (StoreKeys.isValidKey(key)) {
            out.add(new StoreFile(key, 0, Instant.EPOCH, true));
          } else {
            skipped++;
          }
        }
        token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
      } while (token != null);
    } catch (SdkException e) {
      throw io(url + ": listing " + (prefix.isEmpty() ? "the root" : prefix) + " failed", e);
    }
    if (skipped > 0) {
      LOG.warn(
          "{}: listing {} skipped {} object(s) whose keys this store cannot address "
              + "(empty, '.' or '..' segments, control characters, too long)",
          url,
          prefix,
          skipped);
    }
    out.sort((a, b) -> StoreKeys.compareUtf8(a.key(), b.key()));
    return out;
  }

  @Override
  public boolean exists(String key) throws IOException {
    return head(key) != null;
  }

  @Override
  public StoreFile stat(String key) throws IOException {
    HeadObjectResponse h = head(key);
    if (h == null) {
      throw new NoSuchFileException(url(key), null, "no such file in the store");
    }
    return new StoreFile(key, h.contentLength(), h.lastModified(), false);
  }

  @Override
  public void delete(String key) throws IOException {
    String ok = objectKey(key);
    try {
      retrier.call(
          "DELETE " + key,
          () -> s3.deleteObject(DeleteObjectRequest.builder().bucket(bucket).key(ok).build()));
    } catch (S3Exception e) {
      if (!notFound(e)) {
        throw io(url(key) + ": delete failed", e);
      }
    } catch (SdkException e) {
      throw io(url(key) + ": delete failed", e);
    }
  }

  @Override
  public void move(String from, String to) throws IOException {
    String src = objectKey(from);
    String dst = objectKey(to);
    HeadObjectResponse h = head(from);
    if (h == null) {
      throw new NoSuchFileException(url(from), null, "no such file in the store");
    }
    if (head(to) != null) {
      throw new FileAlreadyExistsException(url(to), null, "exists; not replaced");
    }
    try {
      copy(src, dst, h.contentLength(), from, to, null);
    } catch (S3Exception e) {
      if (e.statusCode() == 412) {
        throw new FileAlreadyExistsException(url(to), null, "exists; not replaced");
      }
      throw io(url(from) + ": copy to " + to + " failed", e);
    } catch (SdkException e) {
      throw io(url(from) + ": copy to " + to + " failed", e);
    }
    delete(from);
  }

  /**
   * A server-side copy that never replaces {@code dst} where the store honours {@code
   * If-None-Match}: see {@link S3Copy}.
   */
  void copy(String src, String dst, long size, String from, String to, String writerToken)
      throws IOException {
    copier.copy(src, dst, size, from, to, writerToken);
  }

  String createUpload(String objectKey, String writerToken, String key) throws IOException {
    CreateMultipartUploadRequest.Builder b =
        CreateMultipartUploadRequest.builder()
            .bucket(bucket)
            .key(objectKey)
            .contentType("application/octet-stream");
    if (writerToken != null) {
      b.metadata(Map.of(WRITER_META, writerToken));
    }
    switch (sse.type) {
      case "sse-s3" -> b.serverSideEncryption(ServerSideEncryption.AES256);
      case "sse-kms" -> {
        b.serverSideEncryption(ServerSideEncryption.AWS_KMS);
        if (sse.kmsKeyId != null) {
          b.ssekmsKeyId(sse.kmsKeyId);
        }
      }
      case "sse-c" ->
          b.sseCustomerAlgorithm("AES256")
              .sseCustomerKey(sse.customerKey.value())
              .sseCustomerKeyMD5(sse.customerKeyMd5);
      default -> {}
    }
    CreateMultipartUploadRequest req = b.build();
    try {
      return retrier.call("CREATE UPLOAD " + key, () -> s3.createMultipartUpload(req).uploadId());
    } catch (SdkException e) {
      throw io(url(key) + ": starting the multipart upload failed", e);
    }
  }

  void abortUpload(String objectKey, String uploadId) {
    try {
      retrier.call(
          "ABORT " + objectKey,
          () ->
              s3.abortMultipartUpload(
                  AbortMultipartUploadRequest.builder()
                      .bucket(bucket)
                      .key(objectKey)
                      .uploadId(uploadId)
                      .build()));
    } catch (S3Exception e) {
      if (!notFound(e)) {
        LOG.warn(
            "{}: aborting the upload of {} failed ({}); cleanupOrphans will retry",
            url,
            keyOf(objectKey),
            Retrier.describe(e));
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "{}: aborting the upload of {} failed ({}); cleanupOrphans will retry",
          url,
          keyOf(objectKey),
          Retrier.describe(e));
    }
  }

  @Override
  public int cleanupOrphans(String prefix, Instant olderThan, Predicate<String> finalName)
      throws IOException {
    return orphans.cleanup(prefix, olderThan, finalName);
  }

  /** Deletes an object by its full key; a missing object is not an error. */
  void deleteObject(String ok) throws IOException {
    try {
      retrier.call(
          "DELETE " + keyOf(ok),
          () -> s3.deleteObject(DeleteObjectRequest.builder().bucket(bucket).key(ok).build()));
    } catch (S3Exception e) {
      if (!notFound(e)) {
        throw io(url + ": deleting " + keyOf(ok) + " failed", e);
      }
    }
  }

  @Override
  public void close() {
    s3.close();
    if (credentialsToClose != null) {
      S3ClientSetup.closeQuietly(credentialsToClose);
    }
    http.close();
  }

  @Override
  public String toString() {
    return "S3Store[" + url + "]";
  }
}
