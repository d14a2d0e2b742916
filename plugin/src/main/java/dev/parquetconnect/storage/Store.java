package dev.parquetconnect.storage;

import java.io.Closeable;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;

/**
 * One storage root (a local directory, an HDFS or other Hadoop directory, an S3 bucket and prefix)
 * that the sink writes through and the source reads through. Obtain one with {@link Stores#open}.
 *
 * <h2>Keys</h2>
 *
 * Every path given to a store is a <em>key</em> relative to the root: segments separated by {@code
 * /}, no leading or trailing {@code /}, no empty, {@code .} or {@code ..} segment, no backslash, no
 * control character, no segment starting with the reserved temporary-file prefix {@link
 * StoreKeys#TEMP_PREFIX}, at most {@link StoreKeys#MAX_KEY_BYTES} UTF-8 bytes and at most {@link
 * StoreKeys#MAX_SEGMENT_BYTES} per segment. A key that breaks a rule is refused with an {@link
 * IllegalArgumentException} before anything is touched: a store never reads or writes outside its
 * root, whatever the caller passes. Prefixes (for {@link #list} and {@link #cleanupOrphans}) follow
 * the same rules, and {@code ""} is the root itself.
 *
 * <h2>Guarantees the exactly-once sink builds on</h2>
 *
 * <ol>
 *   <li><b>Atomic visibility.</b> A file written with {@link #create} is invisible under its final
 *       key ({@link #exists}, {@link #list}, {@link #open}) until {@link StoreOutput#commit()}
 *       returns; from then on it is visible whole. No reader ever sees a partial file under a final
 *       key.
 *   <li><b>No overwrite.</b> {@link StoreOutput#commit()} and {@link #move} never replace an
 *       existing file: if the final key exists they fail with {@link
 *       java.nio.file.FileAlreadyExistsException} and the new data is discarded. Of two writers
 *       committing the same key, at most one succeeds (on S3 only where the store honours {@code
 *       If-None-Match: *}; see docs/storage.md).
 *   <li><b>Durability.</b> When {@code commit()} returns, the data is synced (fsync on local disk,
 *       hsync on HDFS, a completed upload on S3).
 *   <li><b>Fencing by cleanup.</b> {@link #cleanupOrphans} removes the temporary files (local,
 *       HDFS) or aborts the multipart uploads (S3) of uncommitted writers under a prefix; a writer
 *       whose temporary state was removed can no longer commit: its {@code commit()} fails.
 *   <li><b>Deterministic listing.</b> {@link #list} returns entries sorted by key in UTF-8 byte
 *       order (the order S3 lists in), never temporary files or in-progress uploads.
 * </ol>
 *
 * <p>Not guaranteed: atomicity of {@link #move} on S3 (copy then delete: after a crash the file can
 * exist under both keys), and list-after-write consistency on S3-compatible stores that do not
 * offer it (AWS S3 does).
 *
 * <p>Implementations are thread-safe; each {@link StoreOutput} and {@link StoreInput} is used by
 * one thread at a time. Errors are {@link IOException}s whose messages name keys and URLs but never
 * credentials; a missing file is a {@link java.nio.file.NoSuchFileException}.
 */
public interface Store extends Closeable {

  /** The store URL this store was opened with, for logs; never contains credentials. */
  String url();

  /**
   * Opens a committed file for positioned reads (ranged GETs on S3). The input counts the bytes it
   * transfers ({@link StoreInput#bytesRead()}).
   *
   * @throws java.nio.file.NoSuchFileException if there is no such file
   */
  StoreInput open(String key) throws IOException;

  /**
   * Starts writing a new file that will appear under {@code key} when {@link StoreOutput#commit()}
   * is called, and never before. Parent directories are created as needed. Nothing is checked
   * against an existing file here: {@code commit()} does that, atomically where the store can.
   */
  StoreOutput create(String key) throws IOException;

  /**
   * Starts writing a new file whose final name is only chosen at the commit, with {@link
   * StoreOutput#commitAs(String)}: any key in the same directory as {@code key}, which names the
   * directory and the temporary state only. The sink names its files after the last offset they
   * hold, known only when they are committed.
   *
   * <p>Local disk and HDFS simply rename their temporary file to the name given at the commit. On
   * S3, where a multipart upload's key is fixed when it starts, a file larger than one part is
   * uploaded to a hidden staging object ({@link StoreKeys#TEMP_PREFIX} name in the same directory),
   * which the commit completes, copies server-side to the final key (atomically, never replacing)
   * and deletes; a smaller file is one PutObject under the final key.
   */
  default StoreOutput createNamedAtCommit(String key) throws IOException {
    return create(key);
  }

  /**
   * The committed files under {@code prefix}, sorted by key in UTF-8 byte order. Non-recursive: the
   * files directly in the directory {@code prefix} plus its immediate subdirectories ({@link
   * StoreFile#directory()} true); recursive: every file below it, no directory entries. A missing
   * prefix is an empty list. Temporary files and in-progress uploads are never listed.
   */
  List<StoreFile> list(String prefix, boolean recursive) throws IOException;

  /** Whether a committed file exists under {@code key}. */
  boolean exists(String key) throws IOException;

  /** The size and modification time of a committed file. */
  StoreFile stat(String key) throws IOException;

  /** Deletes a file; deleting a missing file is not an error (deletes are idempotent). */
  void delete(String key) throws IOException;

  /**
   * Moves a committed file to another key (the source's done and quarantine prefixes), never
   * replacing an existing file.
   *
   * @throws java.nio.file.FileAlreadyExistsException if {@code to} exists
   * @throws java.nio.file.NoSuchFileException if {@code from} does not exist
   */
  void move(String from, String to) throws IOException;

  /**
   * Removes what crashed or fenced writers of this connector left under {@code prefix}
   * (recursively): temporary files on local disk and HDFS (after lease recovery on HDFS), and
   * incomplete multipart uploads on S3, when they were created or last modified before {@code
   * olderThan} ({@link Instant#MAX} for all). A writer still writing there loses its temporary
   * state and its {@code commit()} fails: call it only for prefixes the caller owns.
   *
   * @return how many temporary files or uploads were removed
   */
  default int cleanupOrphans(String prefix, Instant olderThan) throws IOException {
    return cleanupOrphans(prefix, olderThan, finalName -> true);
  }

  /**
   * As {@link #cleanupOrphans(String, Instant)}, only for the temporary files and uploads of files
   * whose final name (the last key segment) {@code finalName} accepts; one whose final name is not
   * known (a long name's temporary file, an S3 staging object) is passed as {@code ""}. The table
   * maintenance removes the leftovers of its compactions so, and leaves the sink's open files
   * alone.
   */
  int cleanupOrphans(String prefix, Instant olderThan, Predicate<String> finalName)
      throws IOException;
}
