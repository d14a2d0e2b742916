package dev.parquetconnect.format.filter;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.ColumnIndex;
import dev.parquetconnect.format.meta.ColumnOrder;
import dev.parquetconnect.format.meta.OffsetIndex;
import dev.parquetconnect.format.meta.PageLocation;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import java.io.IOException;
import java.util.List;

/**
 * A {@link Predicate} fitted to one schema ({@link Predicate#bind}): NOT pushed down into the
 * operators (SQL's three-valued logic allows it: {@code NOT a < 1} is {@code a >= 1}, {@code NOT (p
 * AND q)} is {@code NOT p OR NOT q}), literals converted to the columns' physical values, and
 * conditions a literal decides alone folded away ({@code int32_col < 1e12} is {@code IS NOT NULL}).
 *
 * <p>It answers three questions, each conservatively: whether a row matches ({@link #test}),
 * whether a row group may hold a match by its statistics ({@link #mightMatch(RowGroup, List)}) or
 * its bloom filters ({@link #mightMatchBloom}), and which rows of a row group may match by its page
 * indexes ({@link #candidateRows}). Immutable and thread-safe.
 */
public final class BoundPredicate {
  private final Predicate predicate;
  private final MessageType schema;
  private final Node root;
  private final List<ColumnDescriptor> columns;

  BoundPredicate(
      Predicate predicate, MessageType schema, Node root, List<ColumnDescriptor> columns) {
    this.predicate = predicate;
    this.schema = schema;
    this.root = root;
    this.columns = List.copyOf(columns);
  }

  /** The predicate as parsed. */
  public Predicate predicate() {
    return predicate;
  }

  /** The schema this predicate was bound to. */
  public MessageType schema() {
    return schema;
  }

  /** The file columns the predicate reads, in schema order, each once. */
  public List<ColumnDescriptor> columns() {
    return columns;
  }

  /** Whether no row can match, whatever the data (e.g. {@code int_col = 1.5}). */
  public boolean isAlwaysFalse() {
    return root.type == Node.Type.FALSE;
  }

  /** Whether every row matches, whatever the data. */
  public boolean isAlwaysTrue() {
    return root.type == Node.Type.TRUE;
  }

  /** Whether the row whose values {@code row} gives matches. */
  public boolean test(RowValues row) {
    return root.test(row);
  }

  /**
   * Whether the row group may hold a matching row, by the statistics of its column chunks; {@code
   * columnOrders} is the footer's (null when it has none).
   */
  public boolean mightMatch(RowGroup rowGroup, List<ColumnOrder> columnOrders) {
    return root.mightMatchStatistics(rowGroup, columnOrders);
  }

  /**
   * Whether the row group may hold a matching row, by the bloom filters of the columns compared
   * with {@code =} or {@code IN}: false only when, under an AND, such a condition's every literal
   * is certainly absent from its column chunk.
   */
  public boolean mightMatchBloom(BloomFilters filters) throws IOException, ParquetException {
    return root.mightMatchBloom(filters);
  }

  /**
   * The rows of a row group of {@code rowCount} rows that may match, by the column and offset
   * indexes of the columns the predicate reads; all rows where a column has no usable index.
   */
  public RowRanges candidateRows(long rowCount, PageIndexes indexes, List<ColumnOrder> columnOrders)
      throws IOException, ParquetException {
    return root.candidateRows(rowCount, indexes, columnOrders);
  }

  @Override
  public String toString() {
    return root.toString();
  }

  /** A node of the bound tree: AND or OR of children, a constant, or a {@link Leaf}. */
  static final class Node {
    enum Type {
      AND,
      OR,
      TRUE,
      FALSE,
      LEAF
    }

    static final Node TRUE = new Node(Type.TRUE, null, null);
    static final Node FALSE = new Node(Type.FALSE, null, null);

    final Type type;
    final Node[] children;
    final Leaf leaf;

    private Node(Type type, Node[] children, Leaf leaf) {
      this.type = type;
      this.children = children;
      this.leaf = leaf;
    }

    static Node leaf(Leaf leaf) {
      return new Node(Type.LEAF, null, leaf);
    }

    /** AND of {@code left} and {@code right}, with constants folded. */
    static Node and(Node left, Node right) {
      if (left.type == Type.FALSE || right.type == Type.FALSE) {
        return FALSE;
      }
      if (left.type == Type.TRUE) {
        return right;
      }
      if (right.type == Type.TRUE) {
        return left;
      }
      return new Node(Type.AND, new Node[] {left, right}, null);
    }

    /** OR of {@code left} and {@code right}, with constants folded. */
    static Node or(Node left, Node right) {
      if (left.type == Type.TRUE || right.type == Type.TRUE) {
        return TRUE;
      }
      if (left.type == Type.FALSE) {
        return right;
      }
      if (right.type == Type.FALSE) {
        return left;
      }
      return new Node(Type.OR, new Node[] {left, right}, null);
    }

    boolean test(RowValues row) {
      return switch (type) {
        case TRUE -> true;
        case FALSE -> false;
        case LEAF -> leaf.test(row);
        case AND -> children[0].test(row) && children[1].test(row);
        case OR -> children[0].test(row) || children[1].test(row);
      };
    }

    boolean mightMatchStatistics(RowGroup rowGroup, List<ColumnOrder> orders) {
      return switch (type) {
        case TRUE -> true;
        case FALSE -> false;
        case LEAF -> {
          ColumnChunk chunk = rowGroup.columns().get(leaf.index);
          if (chunk.metaData() == null) {
            yield true;
          }
          yield leaf.mightMatch(
              ColumnBounds.ofStatistics(
                  chunk.metaData().statistics(),
                  leaf.column,
                  leaf.kind,
                  order(orders, leaf.index),
                  chunk.metaData().numValues()));
        }
        case AND ->
            children[0].mightMatchStatistics(rowGroup, orders)
                && children[1].mightMatchStatistics(rowGroup, orders);
        case OR ->
            children[0].mightMatchStatistics(rowGroup, orders)
                || children[1].mightMatchStatistics(rowGroup, orders);
      };
    }

    boolean mightMatchBloom(BloomFilters filters) throws IOException, ParquetException {
      switch (type) {
        case TRUE:
          return true;
        case FALSE:
          return false;
        case AND:
          return children[0].mightMatchBloom(filters) && children[1].mightMatchBloom(filters);
        case OR:
          return children[0].mightMatchBloom(filters) || children[1].mightMatchBloom(filters);
        default:
          break;
      }
      long[][] hashes = leaf.bloomHashes();
      if (hashes == null) {
        return true;
      }
      BloomFilter filter = filters.bloomFilter(leaf.index);
      if (filter == null) {
        return true;
      }
      for (long[] alternatives : hashes) {
        for (long hash : alternatives) {
          if (filter.mightContain(hash)) {
            return true;
          }
        }
      }
      return false;
    }

    RowRanges candidateRows(long rowCount, PageIndexes indexes, List<ColumnOrder> orders)
        throws IOException, ParquetException {
      return switch (type) {
        case TRUE -> RowRanges.all(rowCount);
        case FALSE -> RowRanges.empty();
        case LEAF -> leafRows(rowCount, indexes, orders);
        case AND -> {
          RowRanges left = children[0].candidateRows(rowCount, indexes, orders);
          yield left.isEmpty()
              ? left
              : left.intersect(children[1].candidateRows(rowCount, indexes, orders));
        }
        case OR ->
            children[0]
                .candidateRows(rowCount, indexes, orders)
                .union(children[1].candidateRows(rowCount, indexes, orders));
      };
    }

    private RowRanges leafRows(long rowCount, PageIndexes indexes, List<ColumnOrder> orders)
        throws IOException, ParquetException {
      ColumnIndex columnIndex = indexes.columnIndex(leaf.index);
      OffsetIndex offsetIndex = indexes.offsetIndex(leaf.index);
      if (columnIndex == null || offsetIndex == null) {
        return RowRanges.all(rowCount);
      }
      List<PageLocation> pages = offsetIndex.pageLocations();
      int n = pages.size();
      if (!PageRows.consistent(pages, rowCount)
          || columnIndex.nullPages().size() != n
          || columnIndex.minValues().size() != n
          || columnIndex.maxValues().size() != n) {
        return RowRanges.all(rowCount);
      }
      ColumnOrder order = order(orders, leaf.index);
      RowRanges.Builder rows = new RowRanges.Builder();
      for (int i = 0; i < n; i++) {
        long start = pages.get(i).firstRowIndex();
        long end = i + 1 < n ? pages.get(i + 1).firstRowIndex() : rowCount;
        ColumnBounds bounds =
            ColumnBounds.ofPage(columnIndex, i, leaf.column, leaf.kind, order, end - start);
        if (leaf.mightMatch(bounds)) {
          rows.add(start, end);
        }
      }
      return rows.build();
    }

    private static ColumnOrder order(List<ColumnOrder> orders, int column) {
      if (orders == null) {
        return null;
      }
      return column < orders.size() ? orders.get(column) : ColumnOrder.UNRECOGNIZED;
    }

    @Override
    public String toString() {
      return switch (type) {
        case TRUE -> "TRUE";
        case FALSE -> "FALSE";
        case LEAF -> leaf.column.dottedPath() + " " + leaf.test;
        case AND -> "(" + children[0] + " AND " + children[1] + ")";
        case OR -> "(" + children[0] + " OR " + children[1] + ")";
      };
    }
  }
}
