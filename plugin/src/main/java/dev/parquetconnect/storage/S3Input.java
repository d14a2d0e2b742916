package dev.parquetconnect.storage;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** A committed object read with ranged GETs pinned to its ETag. */
final class S3Input implements StoreInput {
  private final S3Store store;
  private final String key;
  private final String objectKey;
  private final long length;
  private final String etag;
  private final LongAdder read = new LongAdder();

  S3Input(S3Store store, String key, String objectKey, long length, String etag) {
    this.store = store;
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
      throw new EOFException(
          store.url(key)
              + ": read of "
              + len
              + " bytes at "
              + position
              + " is beyond the end ("
              + length
              + " bytes)");
    }
    int[] done = {0};
    while (done[0] < len) {
      try {
        store.retrier.call(
            "GET " + key,
            () -> {
              long from = position + done[0];
              long to = position + len - 1;
              GetObjectRequest.Builder b =
                  GetObjectRequest.builder()
                      .bucket(store.bucket)
                      .key(objectKey)
                      .range("bytes=" + from + "-" + to);
              if (etag != null) {
                b.ifMatch(etag);
              }
              if (store.sse.customer()) {
                b.sseCustomerAlgorithm("AES256")
                    .sseCustomerKey(store.sse.customerKey.value())
                    .sseCustomerKeyMD5(store.sse.customerKeyMd5);
              }
              try (ResponseInputStream<GetObjectResponse> in = store.s3.getObject(b.build())) {
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
          throw new IOException(store.url(key) + ": the object changed while it was being read", e);
        }
        if (S3Store.notFound(e)) {
          throw new NoSuchFileException(store.url(key), null, "deleted while it was being read");
        }
        throw S3Store.io(store.url(key) + ": ranged read at " + position + " failed", e);
      } catch (SdkException e) {
        throw S3Store.io(store.url(key) + ": ranged read at " + position + " failed", e);
      }
    }
  }

  @Override
  public long bytesRead() {
    return read.sum();
  }

  @Override
  public String name() {
    return store.url(key);
  }

  @Override
  public void close() {}
}
