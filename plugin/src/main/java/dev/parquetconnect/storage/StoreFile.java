package dev.parquetconnect.storage;

import java.time.Instant;
import java.util.Objects;

/**
 * A listing entry: a committed file, or (in non-recursive listings only) a directory.
 *
 * @param key the key relative to the store root, without a trailing {@code /}
 * @param size the file's length in bytes; 0 for a directory
 * @param modified the last modification time (object stores: the commit time); {@link
 *     Instant#EPOCH} for a directory on S3
 * @param directory whether this entry is a directory (a common prefix on S3)
 */
public record StoreFile(String key, long size, Instant modified, boolean directory) {
  public StoreFile {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(modified, "modified");
  }

  /** The last segment of the key. */
  public String name() {
    int slash = key.lastIndexOf('/');
    return slash < 0 ? key : key.substring(slash + 1);
  }
}
