package dev.parquetconnect.sink.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Joda-Time patterns, as Confluent's time partitioners read {@code path.format}, print the same
 * text once translated to java.time. The expected strings are what Joda-Time prints for these
 * patterns (its pattern letters are documented in {@code org.joda.time.format.DateTimeFormat}).
 */
final class JodaPatternsTest {
  private static final ZonedDateTime LATE_DECEMBER =
      ZonedDateTime.of(2026, 12, 28, 7, 5, 9, 123_000_000, ZoneOffset.UTC);

  private static String print(String joda) {
    return DateTimeFormatter.ofPattern(JodaPatterns.toJavaTime(joda), Locale.ENGLISH)
        .format(LATE_DECEMBER);
  }

  @Test
  void yearOfEraAndYearBecomeJavaTimesYearLetters() {
    assertEquals("yyyy", JodaPatterns.toJavaTime("YYYY"));
    assertEquals("uuuu", JodaPatterns.toJavaTime("yyyy"));
    assertEquals(
        "'year'=2026/'month'=12/'day'=28/'hour'=07",
        "'year'="
            + print("YYYY")
            + "/'month'="
            + print("MM")
            + "/'day'="
            + print("dd")
            + "/'hour'="
            + print("HH"));
    assertEquals(
        "year=2026/month=12/day=28/hour=07", print("'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH"));
  }

  @Test
  void textFractionsAndOffsetsPrintAsJodaPrintsThem() {
    assertEquals("Dec Monday 362 07:05:09.123 AM", print("MMM EEEE D hh:mm:ss.SSS a"));
    assertEquals("Z Z", print("Z ZZ"));
    assertEquals("it's 2026", print("'it''s' YYYY"));
    assertEquals("[2026]", print("[YYYY]"));
  }

  @Test
  void lettersWithoutAFaithfulTranslationAreRefused() {
    for (String pattern : new String[] {"xxxx", "ww", "e", "CC", "'unclosed", "q"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> JodaPatterns.toJavaTime(pattern));
      assertTrue(e.getMessage().contains(pattern), e.getMessage());
    }
  }
}
