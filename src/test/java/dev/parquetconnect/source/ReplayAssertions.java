package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.parquetconnect.source.SinkArchive.Original;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;

/** Checks a replayed record against the original it was archived from, field by field. */
final class ReplayAssertions {
  private ReplayAssertions() {}

  static void assertReplayed(Original o, SourceRecord r) {
    String what = "record " + o.topic() + "-" + o.partition() + "@" + o.offset();
    assertEquals(o.topic(), r.topic(), what);
    assertEquals(o.partition(), r.kafkaPartition(), what);
    assertEquals(o.timestamp(), r.timestamp(), what);
    assertEquals(o.key(), r.key(), what);
    Struct v = (Struct) r.value();
    v.validate();
    assertEquals(o.id(), v.getInt64("id"), what);
    assertEquals(o.name(), v.getString("name"), what);
    if (o.id() % 11 == 0) {
      assertNull(v.get("address"), what);
    } else {
      assertEquals(o.street(), v.getStruct("address").getString("street"), what);
      assertEquals(o.zip(), v.getStruct("address").getInt32("zip"), what);
    }
    assertEquals(o.tags(), v.getArray("tags"), what);
    assertEquals(o.amountCents() == null ? null : BigDecimal.valueOf(o.amountCents(), 2),
        v.get("amount"), what);
    assertEquals(o.scores(), v.getMap("scores"), what);
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    for (Header h : r.headers()) {
      headers.add(Map.entry(h.key(), (String) h.value()));
    }
    assertEquals(o.headers(), headers, what);
  }
}
