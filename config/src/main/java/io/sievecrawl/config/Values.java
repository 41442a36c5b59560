package io.sievecrawl.config;

import java.math.BigDecimal;
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

  private Values() {}

  /** A whole count: {@code 10000000}, {@code 10_000_000}, {@code 10M}, {@code 1e7}, {@code 2.5k}. */
  public static long parseCount(String text) {
    Matcher m = COUNT.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("expected a whole number such as 10000000, 10M or 1e7");
    }
    BigDecimal value;
    try {
      value = new BigDecimal(m.group(1).replace("_", "").replace(",", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected a whole number such as 10000000, 10M or 1e7");
    }
    value = value.scaleByPowerOfTen(switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "k" -> 3;
      case "m" -> 6;
      case "g" -> 9;
      case "t" -> 12;
      default -> 0;
    });
    try {
      return value.longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(String.format(Locale.ROOT, "expected a whole number no larger than %,d",
          Long.MAX_VALUE));
    }
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
    BigDecimal amount = new BigDecimal(m.group(1));
    long unitMillis = switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "ms" -> 1;
      case "s" -> 1_000;
      case "m" -> 60_000;
      case "h" -> 3_600_000;
      default -> 86_400_000;
    };
    try {
      return Duration.ofMillis(amount.multiply(BigDecimal.valueOf(unitMillis)).setScale(0,
          java.math.RoundingMode.HALF_UP).longValueExact());
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
    BigDecimal amount = new BigDecimal(m.group(1));
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
      return amount.multiply(BigDecimal.valueOf(multiplier)).setScale(0, java.math.RoundingMode.HALF_UP)
          .longValueExact();
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
