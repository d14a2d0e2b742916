package dev.parquetconnect.format.write;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.MetadataCodec;
import dev.parquetconnect.format.meta.PageEncodingStats;
import dev.parquetconnect.format.meta.PageType;
import dev.parquetconnect.format.meta.RowGroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

/** Reads the footer of a written file with the metadata codec, for tests that inspect layout. */
final class FooterReader {
  private FooterReader() {}

  static FileMetaData read(Path file) throws IOException, ParquetException {
    byte[] bytes = Files.readAllBytes(file);
    int length = MetadataCodec.footerLength(bytes, bytes.length - 8, bytes.length);
    return MetadataCodec.readFileMetaData(bytes, bytes.length - 8 - length, length);
  }

  /** The value encodings of the file's data pages, from the chunks' encoding_stats. */
  static Set<Encoding> dataPageEncodings(FileMetaData footer) {
    Set<Encoding> used = EnumSet.noneOf(Encoding.class);
    for (RowGroup group : footer.rowGroups()) {
      for (ColumnChunk chunk : group.columns()) {
        for (PageEncodingStats s : chunk.metaData().encodingStats()) {
          if (s.pageType() != PageType.DICTIONARY_PAGE) {
            used.add(s.encoding());
          }
        }
      }
    }
    return used;
  }

  /** Whether some chunk has both dictionary-encoded data pages and data pages of another. */
  static boolean someChunkMixesEncodings(FileMetaData footer) {
    for (RowGroup group : footer.rowGroups()) {
      for (ColumnChunk chunk : group.columns()) {
        boolean dictionary = false;
        boolean other = false;
        for (PageEncodingStats s : chunk.metaData().encodingStats()) {
          if (s.pageType() != PageType.DICTIONARY_PAGE) {
            dictionary |= s.encoding().usesDictionary();
            other |= !s.encoding().usesDictionary();
          }
        }
        if (dictionary && other) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether some chunk has a dictionary page. */
  static boolean anyDictionary(FileMetaData footer) {
    for (RowGroup group : footer.rowGroups()) {
      for (ColumnChunk chunk : group.columns()) {
        if (chunk.metaData().dictionaryPageOffset() != null) {
          return true;
        }
      }
    }
    return false;
  }
}
