package io.sievecrawl.config;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and prints values in human units: counts ({@code 10000000}, {@code 10M}, {@code 1e7}), durations
 * ({@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}), sizes ({@code 512KB}, {@code 10MB}, {@code 1GiB}) and rates
 * ({@code 0.01}, {@code 1e-3}, {@code 1%}).
 *
 * <p>Every parser throws {@link IllegalArgumentException} with a message that says what was expected.
 */
public final class Values {
  /** Digits, optionally grouped by thousands with _ or , (10_000_000, 10,000,000), a fraction, an exponent, a unit. */
  private static final Pattern COUNT = Pattern.compile(
      "(?i)((?:[0-9]+|[0-9]{1,3}(?:_[0-9]{3})+|[0-9]{1,3}(?:,[0-9]{3})+)(?:\\.[0-9]+)?(?:e[+]?[0-9]+)?)\\s*([kmgt]?)");
  private static final Pattern DURATION = Pattern.compile("(?i)([0-9]+(?:\\.[0-9]+)?)\\s*(ms|s|m|h|d)");
  private static final Pattern SIZE = Pattern.compile("(?i)([0-9]+(?:\\.[0-9]+)?)\\s*(b|kb|mb|gb|tb|kib|mib|gib|tib)?");

  private static final long[] POWERS_OF_TEN = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000,
      100_000_000, 1_000_000_000, 10_000_000_000L, 100_000_000_000L, 1_000_000_000_000L};

  private Values() {}

  /** A whole count: {@code 10000000}, {@code 10_000_000}, {@code 10M}, {@code 1e7}, {@code 2.5k}. */
  public static long parseCount(String text) {
    Matcher m = COUNT.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("expected a whole number such as 10000000, 10M or 1e7");
    }
    String number = m.group(1).replace("_", "").replace(",", "");
    int exponent = switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "k" -> 3;
      case "m" -> 6;
      case "g" -> 9;
      case "t" -> 12;
      default -> 0;
    };
    try {
      long whole = whole(number);
      return whole >= 0 ? Math.multiplyExact(whole, POWERS_OF_TEN[exponent])
          : new BigDecimal(number).scaleByPowerOfTen(exponent).longValueExact();
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected a whole number such as 10000000, 10M or 1e7");
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(String.format(Locale.ROOT, "expected a whole number no larger than %,d",
          Long.MAX_VALUE));
    }
  }

  /**
   * {@code number} when it is written as a whole number of at most 18 digits (a long, then), -1 otherwise. The
   * parsers leave the rest to BigDecimal: its class initializer alone takes some 13 ms of CPU on JDK 25 (it squares
   * its way to 5^65536), a percent of a short crawl's, and the values on a command line are nearly always whole.
   */
  private static long whole(String number) {
    if (number.isEmpty() || number.length() > 18) {
      return -1;
    }
    for (int i = 0; i < number.length(); i++) {
      if (number.charAt(i) < '0' || number.charAt(i) > '9') {
        return -1;
      }
    }
    return Long.parseLong(number);
  }

  /** {@code number} times {@code unit}, rounded half up to a whole number. */
  private static long times(String number, long unit) {
    long whole = whole(number);
    return whole >= 0 ? Math.multiplyExact(whole, unit)
        : new BigDecimal(number).multiply(BigDecimal.valueOf(unit)).setScale(0, RoundingMode.HALF_UP).longValueExact();
  }

  /** A rate: {@code 0.01}, {@code 1e-3} or {@code 1%}. */
  public static double parseRate(String text) {
    String t = text.trim();
    boolean percent = t.endsWith("%");
    try {
      double value = Double.parseDouble(percent ? t.substring(0, t.length() - 1).trim() : t);
      if (Double.isNaN(value) || Double.isInfinite(value) || t.matches("(?i).*[a-df-z].*")) {
        throw new NumberFormatException();
      }
      return percent ? value / 100 : value;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected a number such as 0.01, 1e-3 or 1%");
    }
  }

  /** A duration with a unit: {@code 500ms}, {@code 10s}, {@code 1.5s}, {@code 2m}, {@code 1h}, {@code 1d}. */
  public static Duration parseDuration(String text) {
    Matcher m = DURATION.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("expected a duration with a unit such as 500ms, 10s, 2m or 1h");
    }
    long unitMillis = switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "ms" -> 1;
      case "s" -> 1_000;
      case "m" -> 60_000;
      case "h" -> 3_600_000;
      default -> 86_400_000;
    };
    try {
      return Duration.ofMillis(times(m.group(1), unitMillis));
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(String.format(Locale.ROOT, "expected a duration no longer than %,dms",
          Long.MAX_VALUE));
    }
  }

  /** A size in bytes: {@code 1048576}, {@code 512KB}, {@code 10MB}, {@code 1GiB} (KB = 1000 bytes, KiB = 1024). */
  public static long parseSize(String text) {
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("expected a size such as 512KB, 10MB or 1GiB");
    }
    String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase(Locale.ROOT);
    long multiplier = switch (unit) {
      case "kb" -> 1_000L;
      case "mb" -> 1_000_000L;
      case "gb" -> 1_000_000_000L;
      case "tb" -> 1_000_000_000_000L;
      case "kib" -> 1L << 10;
      case "mib" -> 1L << 20;
      case "gib" -> 1L << 30;
      case "tib" -> 1L << 40;
      default -> 1L;
    };
    try {
      return times(m.group(1), multiplier);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(String.format(Locale.ROOT, "expected a size no larger than %,d bytes",
          Long.MAX_VALUE));
    }
  }

  /** {@code true}/{@code false}, also {@code yes}/{@code no} and {@code on}/{@code off}. */
  public static boolean parseBoolean(String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "true", "yes", "on" -> true;
      case "false", "no", "off" -> false;
      default -> throw new IllegalArgumentException("expected true or false");
    };
  }

  /** A duration as it is best written in a config file: {@code 250ms}, {@code 10s}, {@code 2m}. */
  public static String formatDuration(Duration d) {
    long ms = d.toMillis();
    if (ms != 0 && ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms != 0 && ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    if (ms != 0 && ms % 1_000 == 0) {
      return ms / 1_000 + "s";
    }
    return ms + "ms";
  }

  /** A byte count in the largest decimal unit it divides evenly, or with one decimal: {@code 10MB}, {@code 2.4GB}. */
  public static String formatSize(long bytes) {
    String[] units = {"B", "KB", "MB", "GB", "TB"};
    double value = bytes;
    int unit = 0;
    while (value >= 1000 && unit < units.length - 1) {
      value /= 1000;
      unit++;
    }
    return (value == Math.rint(value) ? String.valueOf((long) value) : String.format(Locale.ROOT, "%.2f", value))
        + units[unit];
  }

  /** A byte count written exactly, in the largest decimal unit it divides evenly: {@code 10MB}, {@code 1234567}. */
  public static String formatSizeExact(long bytes) {
    String[] units = {"", "KB", "MB", "GB", "TB"};
    long value = bytes;
    int unit = 0;
    while (value != 0 && value % 1000 == 0 && unit < units.length - 1) {
      value /= 1000;
      unit++;
    }
    return value + units[unit];
  }

  /** A count, shortened where it is a round number of thousands or millions: {@code 10M}, {@code 2500}. */
  public static String formatCount(long count) {
    if (count != 0 && count % 1_000_000_000 == 0) {
      return count / 1_000_000_000 + "G";
    }
    if (count != 0 && count % 1_000_000 == 0) {
      return count / 1_000_000 + "M";
    }
    if (count != 0 && count % 1_000 == 0) {
      return count / 1_000 + "k";
    }
    return Long.toString(count);
  }
}
