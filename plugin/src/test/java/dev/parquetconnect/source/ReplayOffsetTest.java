package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The replay offset map behaves as the HashMap it replaces, for Connect and for us. */
class ReplayOffsetTest {
  @Test
  void equalsHashesAndReadsLikeAHashMap() {
    Map<String, Object> offset = SourcePositions.replayOffset(42L, "t/p=0/f.parquet", 3, 17L);
    Map<String, Object> expected = new HashMap<>();
    expected.put("offset", 42L);
    expected.put("file", "t/p=0/f.parquet");
    expected.put("rowGroup", 3);
    expected.put("row", 17L);
    assertEquals(expected, offset);
    assertEquals(offset, expected);
    assertEquals(expected.hashCode(), offset.hashCode());
    assertEquals(4, offset.size());
    assertEquals(42L, offset.get("offset"));
    assertEquals(3, offset.get("rowGroup"));
    assertTrue(offset.containsKey("row"));
    assertFalse(offset.containsKey("done"));
    assertNull(offset.get("done"));
    assertEquals(List.of("offset", "file", "rowGroup", "row"), List.copyOf(offset.keySet()));
    assertEquals(42L, SourcePositions.longOf(offset, SourcePositions.OFFSET, -1));
    assertEquals("t/p=0/f.parquet", SourcePositions.stringOf(offset, SourcePositions.FILE));
    assertThrows(UnsupportedOperationException.class, () -> offset.put("x", 1));
    assertEquals(expected, new HashMap<>(offset));
  }

  @Test
  void serialisesLikeAHashMap() throws Exception {
    // Connect's JsonConverter walks offsets with Jackson; ParquetSourceIT runs the real worker.
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    Map<String, Object> offset = SourcePositions.replayOffset(42L, "f", 0, 1L);
    assertEquals(
        json.readTree(json.writeValueAsString(new HashMap<>(offset))),
        json.readTree(json.writeValueAsString(offset)));
  }
}
