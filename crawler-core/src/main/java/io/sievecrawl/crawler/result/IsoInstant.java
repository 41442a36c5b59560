package io.sievecrawl.crawler.result;

import java.time.Instant;

/**
 * An instant as {@link Instant#toString()} writes it ({@code 2026-11-21T05:00:00.123Z}, the fraction in groups of
 * three digits and left out when zero), without java.time's general formatter.
 *
 * <p>Every record of a crawl carries one or two instants. {@code Instant.toString()} runs them through
 * {@code DateTimeFormatter.ISO_INSTANT}: a StringBuilder, a LocalDateTime and a formatter's printer chain per call,
 * and a large method for the JIT to compile in every crawl. Here the date is worked out from the day number in a
 * few integer steps and written into a char array. Years outside 0000 to 9999, which ISO_INSTANT writes with a sign
 * or more digits, go to {@code Instant.toString()}.
 */
public final class IsoInstant {
  private static final long SECONDS_PER_DAY = 86_400;
  private static final long FIRST_SECOND = -62_167_219_200L; // 0000-01-01T00:00:00Z
  private static final long END_SECOND = 253_402_300_800L; // 10000-01-01T00:00:00Z

  private IsoInstant() {}

  /** {@code instant} as {@link Instant#toString()} writes it. */
  public static String format(Instant instant) {
    long seconds = instant.getEpochSecond();
    if (seconds < FIRST_SECOND || seconds >= END_SECOND) {
      return instant.toString();
    }
    long day = Math.floorDiv(seconds, SECONDS_PER_DAY);
    int secondOfDay = (int) Math.floorMod(seconds, SECONDS_PER_DAY);
    // Civil date from the day number (days since 1970-01-01), in eras of 400 years that start on March 1st, so
    // that a leap day is the last day of its year (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms").
    long z = day + 719_468;
    long era = Math.floorDiv(z, 146_097);
    int dayOfEra = (int) (z - era * 146_097);
    int yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
    int dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    int shiftedMonth = (5 * dayOfYear + 2) / 153; // 0 = March
    int dayOfMonth = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1;
    int month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
    int year = (int) (yearOfEra + era * 400) + (month <= 2 ? 1 : 0);

    int nano = instant.getNano();
    int fractionDigits = nano == 0 ? 0 : nano % 1_000_000 == 0 ? 3 : nano % 1000 == 0 ? 6 : 9;
    char[] text = new char[20 + (fractionDigits == 0 ? 0 : 1 + fractionDigits)];
    digits(text, 0, year, 4);
    text[4] = '-';
    digits(text, 5, month, 2);
    text[7] = '-';
    digits(text, 8, dayOfMonth, 2);
    text[10] = 'T';
    digits(text, 11, secondOfDay / 3600, 2);
    text[13] = ':';
    digits(text, 14, secondOfDay / 60 % 60, 2);
    text[16] = ':';
    digits(text, 17, secondOfDay % 60, 2);
    int at = 19;
    if (fractionDigits > 0) {
      text[at++] = '.';
      int fraction = fractionDigits == 3 ? nano / 1_000_000 : fractionDigits == 6 ? nano / 1000 : nano;
      digits(text, at, fraction, fractionDigits);
      at += fractionDigits;
    }
    text[at] = 'Z';
    return new String(text);
  }

  /** Writes {@code value} as {@code width} decimal digits, zero-padded, at {@code text[at]}. */
  private static void digits(char[] text, int at, int value, int width) {
    for (int i = at + width - 1; i >= at; i--) {
      text[i] = (char) ('0' + value % 10);
      value /= 10;
    }
  }
}
