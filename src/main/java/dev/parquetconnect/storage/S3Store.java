package dev.parquetconnect.storage;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.TrustManagerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

/**
 * An S3 bucket and prefix ({@code s3://bucket/prefix}) on AWS or an S3-compatible store (MinIO,
 * Ceph, R2, S3Proxy...), through the AWS SDK v2 synchronous client on the Apache HTTP client 5.
 *
 * <p>Writes stream out as multipart uploads: a part is uploaded as soon as a part-size buffer
 * fills ({@code s3.part.size}, default 8 MiB, at least 5 MiB), so an open file holds about one
 * part of heap. {@code commit()} uploads the last part and completes the upload with {@code
 * If-None-Match: *} (a file smaller than one part is a single PutObject with the same header);
 * before that it checks with a HEAD that the key is free, for stores that ignore the header. A
 * commit whose response was lost and whose retry finds the upload gone (or gets 412) checks the
 * object: if it carries this writer's token ({@code x-amz-meta-pqc-writer}) or the ETag of
 * exactly these parts, the commit succeeded. Reads are ranged GETs pinned to the ETag seen at
 * open. Every call goes through {@link Retrier}; the SDK's own retries are off.
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

  private final String bucket;
  private final String rootPrefix; // "" or "a/b"
  private final String url;
  private final S3Client s3;
  private final SdkHttpClient http;
  private final AutoCloseable credentialsToClose;
  private final Retrier retrier;
  private final int partSize;
  private final long copyPartSize;
  private final boolean conditionalWrites;
  private final Sse sse;

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
      throw new IllegalArgumentException("s3.part.size must be between " + MIN_PART_SIZE + " and "
          + MAX_PART_SIZE + " bytes, got " + part);
    }
    this.partSize = (int) part;
    // UploadPartCopy takes parts of 5 MiB to 5 GiB.
    this.copyPartSize = Math.min(MAX_SINGLE_COPY, Math.max(MIN_PART_SIZE,
        settings.longValue("s3.copy.part.size", 512L * 1024 * 1024)));
    this.conditionalWrites = settings.bool("s3.conditional.writes", true);
    this.retrier = new Retrier(
        settings.intValue("s3.retry.max.attempts", 10),
        settings.longValue("s3.retry.base.delay.ms", 100),
        settings.longValue("s3.retry.max.delay.ms", 10_000),
        url);
    this.sse = Sse.from(settings);

    String endpoint = settings.string("s3.endpoint", null);
    String region = settings.string("s3.region", null);
    this.http = httpClient(settings);
    AwsCredentialsProvider creds = null;
    try {
      S3ClientBuilder b = S3Client.builder().httpClient(http);
      if (endpoint != null) {
        URI e = URI.create(endpoint);
        if (!"http".equalsIgnoreCase(e.getScheme()) && !"https".equalsIgnoreCase(e.getScheme())) {
          throw new IllegalArgumentException("s3.endpoint must be an http:// or https:// URL");
        }
        if (e.getRawUserInfo() != null) {
          throw new IllegalArgumentException("credentials in s3.endpoint are not allowed");
        }
        b.endpointOverride(e);
      }
      if (region != null) {
        b.region(Region.of(region));
      } else if (endpoint != null) {
        b.region(Region.US_EAST_1); // S3-compatible stores mostly ignore it; the signer needs one
      }
      b.forcePathStyle(settings.bool("s3.path.style.access", false));
      String checksums = settings.string("s3.checksum.calculation", "when_supported")
          .toLowerCase(Locale.ROOT);
      switch (checksums) {
        case "when_supported" -> b.requestChecksumCalculation(
            RequestChecksumCalculation.WHEN_SUPPORTED);
        case "when_required" -> {
          b.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED);
          b.responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        }
        default -> throw new IllegalArgumentException(
            "s3.checksum.calculation must be when_supported or when_required, got " + checksums);
      }
      creds = credentials(settings, region);
      b.credentialsProvider(creds);
      b.overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()));
      this.s3 = b.build();
    } catch (RuntimeException e) {
      http.close();
      if (creds instanceof AutoCloseable c) {
        closeQuietly(c);
      }
      throw e;
    }
    this.credentialsToClose = creds instanceof AutoCloseable c ? c : null;
    LOG.info("{}: opened (endpoint {}, region {}, path-style {}, part size {} bytes, "
            + "conditional writes {}, encryption {}, credentials {})",
        url, endpoint == null ? "AWS" : endpoint, region == null ? "default" : region,
        settings.bool("s3.path.style.access", false), partSize, conditionalWrites, sse.type,
        credentialsKind(settings));
  }

  private static String credentialsKind(StoreSettings settings) {
    String base = settings.has("aws.access.key.id") ? "static keys" : "default chain";
    return settings.has("aws.sts.role.arn") ? "assume-role over " + base : base;
  }

  private static SdkHttpClient httpClient(StoreSettings settings) throws IOException {
    Apache5HttpClient.Builder h = Apache5HttpClient.builder()
        .maxConnections(settings.intValue("s3.max.connections", 50))
        .connectionTimeout(Duration.ofMillis(settings.longValue("s3.connect.timeout.ms", 10_000)))
        .socketTimeout(Duration.ofMillis(settings.longValue("s3.socket.timeout.ms", 50_000)));
    String trustStore = settings.string("s3.tls.truststore.path", null);
    if (trustStore != null) {
      Secret password = settings.secret("s3.tls.truststore.password");
      String type = settings.string("s3.tls.truststore.type", "PKCS12");
      try (InputStream in = new FileInputStream(trustStore)) {
        KeyStore ks = KeyStore.getInstance(type);
        ks.load(in, password == null ? null : password.value().toCharArray());
        TrustManagerFactory tmf =
            TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        h.tlsTrustManagersProvider(tmf::getTrustManagers);
      } catch (GeneralSecurityException e) {
        throw new IOException("cannot load the truststore " + trustStore + " ("
            + e.getClass().getSimpleName() + ")");
      }
    }
    return h.build();
  }

  private AwsCredentialsProvider credentials(StoreSettings settings, String region) {
    Secret id = settings.secret("aws.access.key.id");
    Secret secret = settings.secret("aws.secret.access.key");
    Secret token = settings.secret("aws.session.token");
    if ((id == null) != (secret == null)) {
      throw new IllegalArgumentException(
          "aws.access.key.id and aws.secret.access.key must be set together");
    }
    AwsCredentialsProvider base;
    if (id != null) {
      base = StaticCredentialsProvider.create(token == null
          ? AwsBasicCredentials.create(id.value(), secret.value())
          : AwsSessionCredentials.create(id.value(), secret.value(), token.value()));
    } else {
      base = DefaultCredentialsProvider.builder().build();
    }
    String roleArn = settings.string("aws.sts.role.arn", null);
    if (roleArn == null) {
      return base;
    }
    var sts = StsClient.builder().credentialsProvider(base).httpClient(http);
    String stsRegion = settings.string("aws.sts.region", region);
    sts.region(Region.of(stsRegion == null ? "us-east-1" : stsRegion));
    String stsEndpoint = settings.string("aws.sts.endpoint", null);
    if (stsEndpoint != null) {
      sts.endpointOverride(URI.create(stsEndpoint));
    }
    String session = settings.string("aws.sts.role.session.name", "kafka-connect-parquet");
    Secret externalId = settings.secret("aws.sts.external.id");
    int duration = settings.intValue("aws.sts.duration.seconds", 3600);
    return StsAssumeRoleCredentialsProvider.builder()
        .stsClient(sts.build())
        .refreshRequest(r -> {
          r.roleArn(roleArn).roleSessionName(session).durationSeconds(duration);
          if (externalId != null) {
            r.externalId(externalId.value());
          }
        })
        .build();
  }

  /** Server-side encryption settings, applied to every request that needs them. */
  static final class Sse {
    final String type; // none, sse-s3, sse-kms, sse-c
    final String kmsKeyId;
    final Secret customerKey; // base64 of 32 bytes
    final String customerKeyMd5;

    private Sse(String type, String kmsKeyId, Secret customerKey, String customerKeyMd5) {
      this.type = type;
      this.kmsKeyId = kmsKeyId;
      this.customerKey = customerKey;
      this.customerKeyMd5 = customerKeyMd5;
    }

    static Sse from(StoreSettings settings) {
      String type = settings.string("s3.sse.type", "none").toLowerCase(Locale.ROOT);
      switch (type) {
        case "none", "sse-s3" -> {
          return new Sse(type, null, null, null);
        }
        case "sse-kms" -> {
          return new Sse(type, settings.string("s3.sse.kms.key.id", null), null, null);
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
          return new Sse(type, null, key, Base64.getEncoder().encodeToString(md5(raw)));
        }
        default -> throw new IllegalArgumentException(
            "s3.sse.type must be none, sse-s3, sse-kms or sse-c, got " + type);
      }
    }

    boolean customer() {
      return customerKey != null;
    }
  }

  static byte[] md5(byte[] b) {
    try {
      return MessageDigest.getInstance("MD5").digest(b);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
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
      throw new IllegalArgumentException("store key '" + StoreKeys.printable(key)
          + "' with the root prefix is longer than " + StoreKeys.MAX_KEY_BYTES + " bytes");
    }
    return k;
  }

  /** The object-key prefix of everything under a store prefix, ending in "/" (or ""). */
  private String listPrefix(String prefix) {
    StoreKeys.checkPrefix(prefix);
    String p = rootPrefix.isEmpty() ? prefix : prefix.isEmpty() ? rootPrefix
        : rootPrefix + "/" + prefix;
    return p.isEmpty() ? "" : p + "/";
  }

  private String keyOf(String objectKey) {
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

  private HeadObjectResponse head(String key) throws IOException {
    return headObject(objectKey(key), key);
  }

  /** HEAD of an object by its full object key; {@code key} names it in messages. */
  private HeadObjectResponse headObject(String ok, String key) throws IOException {
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
      b.sseCustomerAlgorithm("AES256").sseCustomerKey(sse.customerKey.value())
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
    return new S3Input(key, objectKey(key), h.contentLength(), h.eTag());
  }

  @Override
  public StoreOutput create(String key) {
    return new S3Output(key, objectKey(key), null);
  }

  @Override
  public StoreOutput createNamedAtCommit(String key) {
    String ok = objectKey(key);
    String parent = StoreKeys.parent(key);
    String staging = (rootPrefix.isEmpty() ? "" : rootPrefix + "/") + STAGING_DIR + "/"
        + (parent.isEmpty() ? "" : parent + "/") + StoreKeys.randomToken();
    if (staging.getBytes(StandardCharsets.UTF_8).length > StoreKeys.MAX_KEY_BYTES) {
      throw new IllegalArgumentException("store key '" + StoreKeys.printable(key) + "' leaves no "
          + "room for its staging object within " + StoreKeys.MAX_KEY_BYTES + " bytes");
    }
    return new S3Output(key, ok, staging);
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
      LOG.warn("{}: listing {} skipped {} object(s) whose keys this store cannot address "
          + "(empty, '.' or '..' segments, control characters, too long)", url, prefix, skipped);
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
      retrier.call("DELETE " + key,
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
   * If-None-Match} (one CopyObject, or UploadPartCopy parts above {@code s3.copy.part.size} or 5
   * GiB). The object under {@code dst} appears at once, whole. User metadata is copied; a
   * multipart copy sets {@code writerToken} (when not null) as CopyObject would have copied it.
   */
  private void copy(String src, String dst, long size, String from, String to,
      String writerToken) throws IOException {
    if (size <= Math.min(MAX_SINGLE_COPY, copyPartSize)) {
      CopyObjectRequest.Builder b = CopyObjectRequest.builder()
          .sourceBucket(bucket).sourceKey(src).destinationBucket(bucket).destinationKey(dst);
      if (conditionalWrites) {
        b.ifNoneMatch("*");
      }
      applySse(b);
      CopyObjectRequest req = b.build();
      retrier.call("COPY " + from + " -> " + to, () -> s3.copyObject(req));
    } else {
      multipartCopy(src, dst, size, to, writerToken);
    }
  }

  private void applySse(CopyObjectRequest.Builder b) {
    switch (sse.type) {
      case "sse-s3" -> b.serverSideEncryption(ServerSideEncryption.AES256);
      case "sse-kms" -> {
        b.serverSideEncryption(ServerSideEncryption.AWS_KMS);
        if (sse.kmsKeyId != null) {
          b.ssekmsKeyId(sse.kmsKeyId);
        }
      }
      case "sse-c" -> b.sseCustomerAlgorithm("AES256").sseCustomerKey(sse.customerKey.value())
          .sseCustomerKeyMD5(sse.customerKeyMd5)
          .copySourceSSECustomerAlgorithm("AES256")
          .copySourceSSECustomerKey(sse.customerKey.value())
          .copySourceSSECustomerKeyMD5(sse.customerKeyMd5);
      default -> { }
    }
  }

  private void multipartCopy(String src, String dst, long size, String to, String writerToken)
      throws IOException {
    String uploadId = createUpload(dst, writerToken, to);
    try {
      List<CompletedPart> parts = new ArrayList<>();
      int n = 1;
      for (long pos = 0; pos < size; pos += copyPartSize, n++) {
        long end = Math.min(size, pos + copyPartSize) - 1;
        UploadPartCopyRequest.Builder b = UploadPartCopyRequest.builder()
            .sourceBucket(bucket).sourceKey(src).destinationBucket(bucket).destinationKey(dst)
            .uploadId(uploadId).partNumber(n).copySourceRange("bytes=" + pos + "-" + end);
        if (sse.customer()) {
          b.sseCustomerAlgorithm("AES256").sseCustomerKey(sse.customerKey.value())
              .sseCustomerKeyMD5(sse.customerKeyMd5)
              .copySourceSSECustomerAlgorithm("AES256")
              .copySourceSSECustomerKey(sse.customerKey.value())
              .copySourceSSECustomerKeyMD5(sse.customerKeyMd5);
        }
        UploadPartCopyRequest req = b.build();
        int partNumber = n;
        String etag = retrier.call("COPY PART " + n + " of " + to,
            () -> s3.uploadPartCopy(req).copyPartResult().eTag());
        parts.add(CompletedPart.builder().partNumber(partNumber).eTag(etag).build());
      }
      completeUpload(dst, uploadId, parts, to);
    } catch (IOException | RuntimeException e) {
      abortUpload(dst, uploadId);
      throw e;
    }
  }

  private String createUpload(String objectKey, String writerToken, String key) throws IOException {
    CreateMultipartUploadRequest.Builder b =
        CreateMultipartUploadRequest.builder().bucket(bucket).key(objectKey)
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
      case "sse-c" -> b.sseCustomerAlgorithm("AES256").sseCustomerKey(sse.customerKey.value())
          .sseCustomerKeyMD5(sse.customerKeyMd5);
      default -> { }
    }
    CreateMultipartUploadRequest req = b.build();
    try {
      return retrier.call("CREATE UPLOAD " + key, () -> s3.createMultipartUpload(req).uploadId());
    } catch (SdkException e) {
      throw io(url(key) + ": starting the multipart upload failed", e);
    }
  }

  /** Completes the upload of a multipart copy, with the conditional header when enabled. */
  private void completeUpload(String objectKey, String uploadId, List<CompletedPart> parts,
      String key) throws IOException {
    CompleteMultipartUploadRequest.Builder b = CompleteMultipartUploadRequest.builder()
        .bucket(bucket).key(objectKey).uploadId(uploadId)
        .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build());
    if (conditionalWrites) {
      b.ifNoneMatch("*");
    }
    CompleteMultipartUploadRequest req = b.build();
    retrier.call("COMPLETE " + key, () -> s3.completeMultipartUpload(req));
  }

  private void abortUpload(String objectKey, String uploadId) {
    try {
      retrier.call("ABORT " + objectKey, () -> s3.abortMultipartUpload(
          AbortMultipartUploadRequest.builder().bucket(bucket).key(objectKey).uploadId(uploadId)
              .build()));
    } catch (S3Exception e) {
      if (!notFound(e)) {
        LOG.warn("{}: aborting the upload of {} failed ({}); cleanupOrphans will retry", url,
            keyOf(objectKey), Retrier.describe(e));
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("{}: aborting the upload of {} failed ({}); cleanupOrphans will retry", url,
          keyOf(objectKey), Retrier.describe(e));
    }
  }

  @Override
  public int cleanupOrphans(String prefix, Instant olderThan) throws IOException {
    int aborted = abortUploads(listPrefix(prefix), prefix, olderThan);
    if (!prefix.isEmpty()) {
      // The uploads of files named at their commit go to the staging prefix (under the root,
      // so a cleanup of the root found them above).
      aborted += abortUploads(stagingPrefix(prefix), prefix, olderThan);
    }
    return aborted + deleteStagingObjects(prefix, olderThan);
  }

  /** The object-key prefix of the staging objects of files under a store prefix. */
  private String stagingPrefix(String prefix) {
    return (rootPrefix.isEmpty() ? "" : rootPrefix + "/") + STAGING_DIR + "/"
        + (prefix.isEmpty() ? "" : prefix + "/");
  }

  /** Aborts the multipart uploads under the object-key prefix {@code lp} begun before a time. */
  private int abortUploads(String lp, String prefix, Instant olderThan) throws IOException {
    int aborted = 0;
    String keyMarker = null;
    String idMarker = null;
    try {
      while (true) {
        ListMultipartUploadsRequest.Builder rb =
            ListMultipartUploadsRequest.builder().bucket(bucket).prefix(lp);
        if (keyMarker != null) {
          rb.keyMarker(keyMarker).uploadIdMarker(idMarker);
        }
        ListMultipartUploadsRequest req = rb.build();
        ListMultipartUploadsResponse page =
            retrier.call("LIST UPLOADS " + prefix, () -> s3.listMultipartUploads(req));
        for (MultipartUpload u : page.uploads()) {
          if (!u.key().startsWith(lp)) {
            continue;
          }
          if (u.initiated() != null && !u.initiated().isBefore(olderThan)) {
            continue;
          }
          abortUpload(u.key(), u.uploadId());
          aborted++;
          LOG.info("{}: aborted the orphaned multipart upload of {}", url, keyOf(u.key()));
        }
        if (!Boolean.TRUE.equals(page.isTruncated())) {
          break;
        }
        keyMarker = page.nextKeyMarker();
        idMarker = page.nextUploadIdMarker();
      }
    } catch (SdkException e) {
      throw io(url + ": listing the multipart uploads under "
          + (prefix.isEmpty() ? "the root" : prefix) + " failed", e);
    }
    return aborted;
  }

  /**
   * Deletes the staging objects of files named at their commit under {@code prefix}, last
   * modified before {@code olderThan}: completed uploads whose writer crashed (or was fenced)
   * before copying them to their final key, or after copying and before deleting them. Deleting
   * one fences its writer: the copy of a missing source fails.
   */
  private int deleteStagingObjects(String prefix, Instant olderThan) throws IOException {
    String stagingPrefix = stagingPrefix(prefix);
    int deleted = 0;
    String token = null;
    try {
      do {
        ListObjectsV2Request.Builder rb =
            ListObjectsV2Request.builder().bucket(bucket).prefix(stagingPrefix);
        if (token != null) {
          rb.continuationToken(token);
        }
        ListObjectsV2Request req = rb.build();
        ListObjectsV2Response page =
            retrier.call("LIST STAGING " + prefix, () -> s3.listObjectsV2(req));
        for (S3Object o : page.contents()) {
          if (o.lastModified() != null && !o.lastModified().isBefore(olderThan)) {
            continue;
          }
          deleteObject(o.key());
          deleted++;
          LOG.info("{}: deleted the orphaned staging object {}", url, keyOf(o.key()));
        }
        token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
      } while (token != null);
    } catch (SdkException e) {
      throw io(url + ": listing the staging objects under "
          + (prefix.isEmpty() ? "the root" : prefix) + " failed", e);
    }
    return deleted;
  }

  /** Deletes an object by its full key; a missing object is not an error. */
  private void deleteObject(String ok) throws IOException {
    try {
      retrier.call("DELETE " + keyOf(ok),
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
      closeQuietly(credentialsToClose);
    }
    http.close();
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // nothing to do
    }
  }

  @Override
  public String toString() {
    return "S3Store[" + url + "]";
  }

  /** A committed object read with ranged GETs pinned to its ETag. */
  private final class S3Input implements StoreInput {
    private final String key;
    private final String objectKey;
    private final long length;
    private final String etag;
    private final LongAdder read = new LongAdder();

    S3Input(String key, String objectKey, long length, String etag) {
      this.key = key;
      this.objectKey = objectKey;
      this.length = length;
      this.etag = etag;
    }

    @Override
    public long length() {
      return length;
    }

    @Override
    public void readFully(long position, byte[] dst, int off, int len) throws IOException {
      if (position < 0 || len < 0 || position + len > length) {
        throw new EOFException(url(key) + ": read of " + len + " bytes at " + position
            + " is beyond the end (" + length + " bytes)");
      }
      int[] done = {0};
      while (done[0] < len) {
        try {
          retrier.call("GET " + key, () -> {
            long from = position + done[0];
            long to = position + len - 1;
            GetObjectRequest.Builder b = GetObjectRequest.builder().bucket(bucket).key(objectKey)
                .range("bytes=" + from + "-" + to);
            if (etag != null) {
              b.ifMatch(etag);
            }
            if (sse.customer()) {
              b.sseCustomerAlgorithm("AES256").sseCustomerKey(sse.customerKey.value())
                  .sseCustomerKeyMD5(sse.customerKeyMd5);
            }
            try (ResponseInputStream<GetObjectResponse> in = s3.getObject(b.build())) {
              while (done[0] < len) {
                int n = in.read(dst, off + done[0], len - done[0]);
                if (n < 0) {
                  throw new EOFException("the response ended early");
                }
                done[0] += n;
                read.add(n);
              }
            }
            return null;
          });
        } catch (S3Exception e) {
          if (e.statusCode() == 412) {
            throw new IOException(url(key) + ": the object changed while it was being read", e);
          }
          if (notFound(e)) {
            throw new NoSuchFileException(url(key), null, "deleted while it was being read");
          }
          throw io(url(key) + ": ranged read at " + position + " failed", e);
        } catch (SdkException e) {
          throw io(url(key) + ": ranged read at " + position + " failed", e);
        }
      }
    }

    @Override
    public long bytesRead() {
      return read.sum();
    }

    @Override
    public String name() {
      return url(key);
    }

    @Override
    public void close() {}
  }

  /**
   * A file streamed out as a multipart upload (or one PutObject when it fits in one part). With a
   * staging key ({@link #createNamedAtCommit}) the upload goes there and the commit copies the
   * completed object to the key given at the commit; without, the upload's key is its own.
   */
  private final class S3Output extends StoreOutput {
    private final String key;
    private final String objectKey;
    /** The hidden object a multipart upload goes to when the name is chosen at commit; null. */
    private final String stagingKey;
    private final String token = StoreKeys.randomToken();
    private byte[] buf = new byte[Math.min(partSize, 64 * 1024)];
    private int len;
    private long written;
    private String uploadId;
    private final List<CompletedPart> parts = new ArrayList<>();
    private final List<String> partEtags = new ArrayList<>();
    /** The staging object exists (its upload completed) and must be deleted. */
    private boolean stagingCompleted;
    private boolean closed;
    private boolean committed;

    S3Output(String key, String objectKey, String stagingKey) {
      this.key = key;
      this.objectKey = objectKey;
      this.stagingKey = stagingKey;
    }

    /** Where the multipart upload goes. */
    private String uploadKey() {
      return stagingKey != null ? stagingKey : objectKey;
    }

    @Override
    public String key() {
      return key;
    }

    @Override
    public long bytesWritten() {
      return written;
    }

    @Override
    public boolean committed() {
      return committed;
    }

    /** The heap this output holds: its part buffer. */
    @Override
    public long heapBytes() {
      return buf == null ? 0 : buf.length;
    }

    @Override
    public void write(byte[] b, int off, int n) throws IOException {
      if (closed) {
        throw new IOException(url(key) + ": the output is already committed or aborted");
      }
      java.util.Objects.checkFromIndexSize(off, n, b.length);
      try {
        while (n > 0) {
          if (len == buf.length) {
            if (buf.length < partSize) {
              buf = java.util.Arrays.copyOf(buf, (int) Math.min(partSize, 2L * buf.length));
            } else {
              uploadPart();
            }
          }
          int c = Math.min(n, buf.length - len);
          System.arraycopy(b, off, buf, len, c);
          len += c;
          off += c;
          n -= c;
          written += c;
        }
      } catch (IOException | RuntimeException e) {
        fail();
        throw e;
      }
    }

    private void uploadPart() throws IOException {
      if (uploadId == null) {
        uploadId = createUpload(uploadKey(), token, key);
      }
      int partNumber = parts.size() + 1;
      UploadPartRequest.Builder b = UploadPartRequest.builder().bucket(bucket).key(uploadKey())
          .uploadId(uploadId).partNumber(partNumber).contentLength((long) len);
      if (sse.customer()) {
        b.sseCustomerAlgorithm("AES256").sseCustomerKey(sse.customerKey.value())
            .sseCustomerKeyMD5(sse.customerKeyMd5);
      }
      UploadPartRequest req = b.build();
      byte[] data = buf;
      int size = len;
      String etag;
      try {
        etag = retrier.call("UPLOAD PART " + partNumber + " of " + key,
            () -> s3.uploadPart(req, body(data, size)).eTag());
      } catch (S3Exception e) {
        if (notFound(e)) {
          throw new Retrier.FencedException(url(key) + ": the multipart upload is gone "
              + "(aborted by a cleanup: this writer was fenced)");
        }
        throw io(url(key) + ": uploading part " + partNumber + " failed", e);
      } catch (SdkException e) {
        throw io(url(key) + ": uploading part " + partNumber + " failed", e);
      }
      parts.add(CompletedPart.builder().partNumber(partNumber).eTag(etag).build());
      partEtags.add(etag);
      len = 0;
    }

    private RequestBody body(byte[] data, int size) {
      // No copy of the part: the SDK opens a fresh stream over the buffer for each attempt.
      return RequestBody.fromContentProvider(() -> new ByteArrayInputStream(data, 0, size), size,
          "application/octet-stream");
    }

    @Override
    public void commitAs(String finalKey) throws IOException {
      if (closed) {
        throw new IOException(url(key) + ": the output is already committed or aborted");
      }
      String finalObjectKey = objectKey;
      if (!finalKey.equals(key)) {
        checkSameDirectory(key, finalKey);
        finalObjectKey = objectKey(finalKey);
        if (stagingKey == null && uploadId != null) {
          throw new IllegalArgumentException(url(key) + ": its multipart upload has started "
              + "under its own key; only a file created with createNamedAtCommit can be renamed");
        }
      }
      closed = true;
      try {
        if (head(finalKey) != null) {
          throw new FileAlreadyExistsException(url(finalKey), null, "exists; not replaced");
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
        committed = true;
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
          deleteObject(stagingKey);
          stagingCompleted = false;
        } catch (IOException | RuntimeException e) {
          LOG.warn("{}: deleting the staging object of {} failed ({}); cleanupOrphans will", url,
              finalKey, Retrier.describe(e));
        }
      }
    }

    private void putWhole(String finalKey, String finalObjectKey) throws IOException {
      PutObjectRequest.Builder b = PutObjectRequest.builder().bucket(bucket).key(finalObjectKey)
          .contentLength((long) len).contentType("application/octet-stream")
          .metadata(Map.of(WRITER_META, token));
      if (conditionalWrites) {
        b.ifNoneMatch("*");
      }
      switch (sse.type) {
        case "sse-s3" -> b.serverSideEncryption(ServerSideEncryption.AES256);
        case "sse-kms" -> {
          b.serverSideEncryption(ServerSideEncryption.AWS_KMS);
          if (sse.kmsKeyId != null) {
            b.ssekmsKeyId(sse.kmsKeyId);
          }
        }
        case "sse-c" -> b.sseCustomerAlgorithm("AES256").sseCustomerKey(sse.customerKey.value())
            .sseCustomerKeyMD5(sse.customerKeyMd5);
        default -> { }
      }
      PutObjectRequest req = b.build();
      byte[] data = buf;
      int size = len;
      try {
        retrier.call("PUT " + finalKey, () -> s3.putObject(req, body(data, size)));
      } catch (S3Exception e) {
        if (e.statusCode() == 412) {
          if (isOurs(finalObjectKey, finalKey, null)) {
            LOG.info("{}: the object was already created by an earlier attempt of this writer "
                + "whose response was lost: committed", url(finalKey));
            return;
          }
          throw new FileAlreadyExistsException(url(finalKey), null, "exists; not replaced");
        }
        throw io(url(finalKey) + ": upload failed", e);
      } catch (SdkException e) {
        throw io(url(finalKey) + ": upload failed", e);
      }
    }

    /** Completes the multipart upload (to the staging object or the output's own key). */
    private void complete() throws IOException {
      String target = uploadKey();
      String name = stagingKey != null ? "the staging object of " + key : key;
      CompleteMultipartUploadRequest.Builder b = CompleteMultipartUploadRequest.builder()
          .bucket(bucket).key(target).uploadId(uploadId)
          .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build());
      if (conditionalWrites) {
        b.ifNoneMatch("*");
      }
      if (sse.customer()) {
        b.sseCustomerAlgorithm("AES256").sseCustomerKey(sse.customerKey.value())
            .sseCustomerKeyMD5(sse.customerKeyMd5);
      }
      CompleteMultipartUploadRequest req = b.build();
      try {
        retrier.call("COMPLETE " + name, () -> s3.completeMultipartUpload(req));
      } catch (S3Exception e) {
        if (isInvalidPart(e) && isOurs(target, name, expectedMultipartEtag())) {
          // A retried completion after a lost or cut-off response: some stores answer that the
          // parts are gone (they now form the object) instead of NoSuchUpload.
          LOG.info("{}: the upload was already completed by an earlier attempt of this writer "
              + "whose response was lost: committed", url(key));
          completed();
          return;
        }
        if (e.statusCode() == 404 || e.statusCode() == 412) {
          // The upload is gone or the key exists: either an earlier attempt of ours completed
          // it (its response was lost) or someone else won.
          if (isOurs(target, name, expectedMultipartEtag())) {
            LOG.info("{}: the upload was already completed by an earlier attempt of this writer "
                + "whose response was lost: committed", url(key));
            completed();
            return;
          }
          uploadId = e.statusCode() == 404 ? null : uploadId;
          if (e.statusCode() == 412) {
            throw new FileAlreadyExistsException(url(key), null, "exists; not replaced");
          }
          throw new Retrier.FencedException(url(key) + ": the multipart upload is gone "
              + "(aborted by a cleanup: this writer was fenced)");
        }
        throw io(url(key) + ": completing the upload failed", e);
      } catch (SdkException e) {
        throw io(url(key) + ": completing the upload failed", e);
      }
      completed();
    }

    private void completed() {
      uploadId = null;
      stagingCompleted = stagingKey != null;
    }

    /**
     * Makes the completed staging object appear under the final key: a server-side copy, which
     * never replaces an existing object where the store honours {@code If-None-Match} (the HEAD
     * before the commit covers the others) and carries this writer's token in its metadata, so a
     * retried copy whose first response was lost recognises its own object.
     */
    private void copyStaged(String finalKey, String finalObjectKey) throws IOException {
      try {
        copy(stagingKey, finalObjectKey, written, "the staging object of " + finalKey, finalKey,
            token);
      } catch (S3Exception e) {
        if (e.statusCode() == 412 || e.statusCode() == 404) {
          if (isOurs(finalObjectKey, finalKey, null)) {
            LOG.info("{}: the object was already copied by an earlier attempt of this writer "
                + "whose response was lost: committed", url(finalKey));
            return;
          }
          if (e.statusCode() == 412) {
            throw new FileAlreadyExistsException(url(finalKey), null, "exists; not replaced");
          }
          stagingCompleted = false;
          throw new Retrier.FencedException(url(finalKey) + ": the staging object is gone "
              + "(deleted by a cleanup: this writer was fenced)");
        }
        throw io(url(finalKey) + ": copying the staging object failed", e);
      } catch (SdkException e) {
        throw io(url(finalKey) + ": copying the staging object failed", e);
      }
    }

    /** Whether the object under {@code ok} is the one this writer wrote. */
    private boolean isOurs(String ok, String name, String expectedEtag) throws IOException {
      HeadObjectResponse h = headObject(ok, name);
      if (h == null) {
        return false;
      }
      if (token.equals(h.metadata().get(WRITER_META))) {
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
      closed = true;
      discard();
    }

    @Override
    public void abort() {
      if (committed) {
        return;
      }
      closed = true;
      discard();
    }

    private void discard() {
      buf = null;
      if (uploadId != null) {
        String id = uploadId;
        uploadId = null;
        abortUpload(uploadKey(), id);
      }
      if (stagingCompleted) {
        stagingCompleted = false;
        try {
          deleteObject(stagingKey);
        } catch (IOException | RuntimeException e) {
          LOG.warn("{}: deleting the staging object of {} failed ({}); cleanupOrphans will", url,
              key, Retrier.describe(e));
        }
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
