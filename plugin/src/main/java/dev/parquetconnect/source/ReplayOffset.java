package dev.parquetconnect.source;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The source offset of a replayed record, {@code {offset, file, rowGroup, row}} (see {@link
 * SourcePositions}), as an immutable map that holds its four values unboxed. One is made per
 * record, and Connect keeps only the latest offset of each source partition until it commits, so
 * most are never read: building a HashMap or {@code Map.of} (hashing and probing four keys) cost
 * more than the rest of the record's bookkeeping. Reads box on the way out; equality and hashing
 * are a map's.
 */
final class ReplayOffset extends AbstractMap<String, Object> {
  private static final String[] KEYS = {
    SourcePositions.OFFSET, SourcePositions.FILE, SourcePositions.ROW_GROUP, SourcePositions.ROW
  };

  private final long offset;
  private final String file;
  private final int rowGroup;
  private final long row;

  ReplayOffset(long offset, String file, int rowGroup, long row) {
    this.offset = offset;
    this.file = file;
    this.rowGroup = rowGroup;
    this.row = row;
  }

  private Object valueAt(int i) {
    return switch (i) {
      case 0 -> offset;
      case 1 -> file;
      case 2 -> rowGroup;
      default -> row;
    };
  }

  private static int indexOf(Object key) {
    for (int i = 0; i < KEYS.length; i++) {
      if (KEYS[i].equals(key)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public int size() {
    return KEYS.length;
  }

  @Override
  public boolean containsKey(Object key) {
    return indexOf(key) >= 0;
  }

  @Override
  public Object get(Object key) {
    int i = indexOf(key);
    return i < 0 ? null : valueAt(i);
  }

  @Override
  public Set<Map.Entry<String, Object>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return KEYS.length;
      }

      @Override
      public Iterator<Map.Entry<String, Object>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < KEYS.length;
          }

          @Override
          public Map.Entry<String, Object> next() {
            if (next >= KEYS.length) {
              throw new NoSuchElementException();
            }
            int i = next++;
            return new AbstractMap.SimpleImmutableEntry<>(KEYS[i], valueAt(i));
          }
        };
      }
    };
  }
}
