package dev.parquetconnect.format.write;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.read.ColumnBatch;
import dev.parquetconnect.format.read.ColumnReader;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.SchemaNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@link ParquetFileWriter#reshape} does to each column of the wider schema, decided from the
 * schemas and what the open row group holds, and the filling of the columns it makes anew.
 *
 * <p>A column of the wider schema is one of:
 *
 * <ul>
 *   <li><b>kept</b>: the file has it (same path, type and levels); its writer goes on;
 *   <li><b>converted</b>: the file has it under the same path and levels but another type, and
 *       every value it holds has one in the wider type (INT32 to INT64 or DOUBLE, INT64 to DOUBLE,
 *       an integer or boolean to its {@link ValueText text}; any type when it holds only nulls):
 *       its buffered pages are decoded and written again, value by value;
 *   <li><b>new</b>: the file lacks it. Its rows so far are null or absent in it, at the levels of
 *       the deepest group on its path both schemas share (the parent), which every column under
 *       that parent records: a column under the parent is decoded, its entries that repeat a field
 *       deeper than the parent dropped, its definition levels capped at the parent's. The first
 *       node below the parent must not be required. A column new at the top level needs no
 *       decoding: one null per record.
 * </ul>
 *
 * A column of the file that the wider schema lacks must hold no value (a type not known yet, the
 * placeholder of an object without keys). Anything else (a group turned into a leaf, a value that
 * has no form in the wider type) refuses the reshape: the caller starts a new file.
 *
 * <p>This costs nothing per value while no reshape happens: the decoding reads the pages the writer
 * keeps in memory anyway (see {@link ColumnChunkWriter#bufferedPages()}).
 */
final class InPlaceReshape {
  private static final int BATCH = 4096;

  /** What becomes of one column of the wider schema. */
  record Step(
      ColumnDescriptor column,
      ColumnChunkWriter kept,
      ColumnChunkWriter source,
      boolean converts,
      int parentRepetition,
      int parentDefinition) {

    /** Whether the step reads buffered pages (which must be closed first). */
    boolean decodes() {
      return source != null;
    }
  }

  private InPlaceReshape() {}

  /**
   * The steps that make {@code wider} the schema of a file of {@code current} whose open row group
   * {@code columns} hold, or null when it cannot be done in place.
   *
   * @throws IllegalArgumentException when a new column's first new field is required (earlier
   *     records have no value for it)
   */
  static List<Step> plan(
      MessageType current, ColumnChunkWriter[] columns, MessageType wider, ValueText text) {
    Map<List<String>, ColumnChunkWriter> byPath = new HashMap<>();
    for (ColumnChunkWriter c : columns) {
      byPath.put(c.descriptor().path(), c);
    }
    Set<List<String>> carried = new HashSet<>();
    List<Step> steps = new ArrayList<>();
    for (ColumnDescriptor column : wider.columns()) {
      ColumnChunkWriter old = byPath.get(column.path());
      if (old != null) {
        ColumnDescriptor was = old.descriptor();
        if (was.maxDefinitionLevel() != column.maxDefinitionLevel()
            || was.maxRepetitionLevel() != column.maxRepetitionLevel()
            || was.primitive().repetition() != column.primitive().repetition()) {
          return null;
        }
        carried.add(column.path());
        if (was.primitive().equals(column.primitive())) {
          steps.add(new Step(column, old, null, false, 0, 0));
        } else if (!converts(old, column, text)) {
          return null;
        } else if (old.bufferedValues() == 0
            && was.maxRepetitionLevel() == 0
            && was.maxDefinitionLevel() <= 1) {
          // Only nulls of a top-level field: every entry is (0, 0), nothing to decode.
          steps.add(new Step(column, null, null, false, 0, 0));
        } else {
          steps.add(new Step(column, null, old, true, 0, 0));
        }
        continue;
      }
      Step step = newColumn(current, columns, wider, column);
      if (step == null) {
        return null;
      }
      steps.add(step);
    }
    for (ColumnChunkWriter c : columns) {
      if (!carried.contains(c.descriptor().path()) && c.bufferedValues() > 0) {
        return null; // a column dropped with its values
      }
    }
    return steps;
  }

  /** The step of a column {@code current} lacks, or null when its path cannot be added. */
  private static Step newColumn(
      MessageType current,
      ColumnChunkWriter[] columns,
      MessageType wider,
      ColumnDescriptor column) {
    List<String> path = column.path();
    GroupNode was = current.root();
    GroupNode now = wider.root();
    int depth = 0;
    int definition = 0;
    int repetition = 0;
    // Down the groups both schemas have (same repetition) to the parent of the first new node.
    while (depth < path.size() - 1) {
      int at = was.fieldIndex(path.get(depth));
      if (at < 0 || !(was.field(at) instanceof GroupNode oldGroup)) {
        break; // absent, or a leaf of only nulls that becomes a group (it is dropped)
      }
      GroupNode newGroup = (GroupNode) now.field(now.fieldIndex(path.get(depth)));
      if (oldGroup.repetition() != newGroup.repetition()) {
        return null;
      }
      definition += newGroup.repetition() != FieldRepetitionType.REQUIRED ? 1 : 0;
      repetition += newGroup.isRepeated() ? 1 : 0;
      was = oldGroup;
      now = newGroup;
      depth++;
    }
    int at = was.fieldIndex(path.get(depth));
    if (at >= 0 && was.field(at) instanceof GroupNode) {
      return null; // a group of the file turned into a leaf: its rows are not all null
    }
    SchemaNode first = now.field(now.fieldIndex(path.get(depth)));
    if (first.repetition() == FieldRepetitionType.REQUIRED) {
      throw new IllegalArgumentException(
          "column "
              + column.dottedPath()
              + " is new but its "
              + "field "
              + String.join(".", path.subList(0, depth + 1))
              + " is required: earlier "
              + "records have no value");
    }
    if (depth == 0) {
      return new Step(column, null, null, false, 0, 0);
    }
    // Any column under the parent records the parent's levels; the least repeated has the
    // fewest entries to decode.
    List<String> parent = path.subList(0, depth);
    ColumnChunkWriter template = null;
    for (ColumnChunkWriter c : columns) {
      ColumnDescriptor d = c.descriptor();
      if (d.path().size() > depth
          && d.path().subList(0, depth).equals(parent)
          && (template == null
              || d.maxRepetitionLevel() < template.descriptor().maxRepetitionLevel())) {
        template = c;
      }
    }
    if (template == null) {
      return null; // cannot happen in a valid schema: every group has a leaf
    }
    return new Step(column, null, template, false, repetition, definition);
  }

  /** Whether every value {@code old} holds has a value in {@code to}'s type. */
  private static boolean converts(ColumnChunkWriter old, ColumnDescriptor to, ValueText text) {
    if (old.bufferedValues() == 0) {
      return true;
    }
    ColumnDescriptor from = old.descriptor();
    PhysicalType source = from.primitive().type();
    LogicalType target = to.primitive().logicalType();
    boolean integer = isSignedInteger(from.primitive().logicalType());
    return switch (to.primitive().type()) {
      case INT64 -> source == PhysicalType.INT32 && integer && isSignedInteger(target);
      case DOUBLE ->
          (source == PhysicalType.INT32 || source == PhysicalType.INT64)
              && integer
              && target == null;
      case BYTE_ARRAY ->
          target instanceof LogicalType.StringType
              && text != null
              && (source == PhysicalType.BOOLEAN && from.primitive().logicalType() == null
                  || (source == PhysicalType.INT32 || source == PhysicalType.INT64) && integer)
              && text.renders(from);
      default -> false;
    };
  }

  private static boolean isSignedInteger(LogicalType type) {
    return type == null || type instanceof LogicalType.IntType i && i.signed();
  }

  /**
   * Writes into {@code target} the entries of {@code step} for the {@code records} records of the
   * open row group, closing its pages at {@code breaks} (the records before each page break of the
   * other columns, with aligned pages) so they end where the others' do.
   */
  static void fill(
      ColumnChunkWriter target,
      Step step,
      long records,
      long[] breaks,
      int breakCount,
      ValueText text) {
    PageBreaks pages = new PageBreaks(target, breaks, breakCount);
    if (!step.decodes()) {
      for (long r = 0; r < records; r++) {
        pages.recordStarts();
        target.writeNull(0, 0);
      }
    } else {
      try (ColumnReader reader = step.source().bufferedPages()) {
        copy(reader, target, step, pages, text);
      } catch (IOException | ParquetException e) {
        // The pages are this writer's own, in memory: failing to read them is a defect.
        throw new IllegalStateException(
            "cannot read back the buffered pages of column "
                + step.source().descriptor().dottedPath()
                + ": "
                + e.getMessage(),
            e);
      }
    }
    pages.end();
    if (pages.records != records) {
      throw new IllegalStateException(
          "column "
              + target.descriptor().dottedPath()
              + " got "
              + pages.records
              + " records of the row group's "
              + records);
    }
  }

  private static void copy(
      ColumnReader reader, ColumnChunkWriter target, Step step, PageBreaks pages, ValueText text)
      throws IOException, ParquetException {
    ColumnDescriptor from = step.source().descriptor();
    int maxRepetition = from.maxRepetitionLevel();
    int maxDefinition = from.maxDefinitionLevel();
    ColumnBatch batch = reader.newBatch(BATCH);
    for (int n; (n = reader.readBatch(batch)) > 0; ) {
      int[] rep = batch.repetitionLevels();
      int[] def = batch.definitionLevels();
      int value = 0;
      for (int i = 0; i < n; i++) {
        int r = maxRepetition > 0 ? rep[i] : 0;
        int d = maxDefinition > 0 ? def[i] : 0;
        boolean isValue = d == maxDefinition;
        if (step.converts()) {
          if (r == 0) {
            pages.recordStarts();
          }
          if (isValue) {
            writeConverted(target, from, batch, value++, r, d, text);
          } else {
            target.writeNull(r, d);
          }
        } else if (r <= step.parentRepetition()) {
          if (r == 0) {
            pages.recordStarts();
          }
          target.writeNull(r, Math.min(d, step.parentDefinition()));
        }
      }
    }
  }

  private static void writeConverted(
      ColumnChunkWriter target,
      ColumnDescriptor from,
      ColumnBatch batch,
      int value,
      int rep,
      int def,
      ValueText text) {
    PhysicalType source = from.primitive().type();
    switch (target.descriptor().primitive().type()) {
      case INT64 -> target.writeLong(batch.ints()[value], rep, def);
      case DOUBLE ->
          target.writeDouble(
              source == PhysicalType.INT32 ? batch.ints()[value] : batch.longs()[value], rep, def);
      case BYTE_ARRAY ->
          target.writeString(
              switch (source) {
                case BOOLEAN -> text.booleanText(from, batch.booleans()[value]);
                case INT32 -> text.integerText(from, batch.ints()[value]);
                case INT64 -> text.integerText(from, batch.longs()[value]);
                default -> throw new IllegalStateException("no text for " + source);
              },
              rep,
              def);
      default ->
          throw new IllegalStateException(
              "no conversion from " + source + " to " + target.descriptor());
    }
  }

  /** Closes the target's page where the other columns' pages were closed. */
  private static final class PageBreaks {
    private final ColumnChunkWriter target;
    private final long[] breaks;
    private final int count;
    private int next;
    long records;

    PageBreaks(ColumnChunkWriter target, long[] breaks, int count) {
      this.target = target;
      this.breaks = breaks;
      this.count = count;
    }

    void recordStarts() {
      if (next < count && breaks[next] == records) {
        target.closeOpenPage();
        next++;
      }
      records++;
    }

    void end() {
      if (next < count && breaks[next] == records) {
        target.closeOpenPage();
        next++;
      }
    }
  }
}
