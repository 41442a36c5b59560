package io.sievecrawl.sieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BloomSizingTest {

  @Test
  void tenMillionUrlsAtOnePercentNeed95850584ClassicalBitsAndSevenHashes() {
    BloomSizing sizing = BloomSizing.of(10_000_000, 0.01);
    assertEquals(95_850_584, sizing.classicalBits());
    assertEquals(11_981_323, sizing.classicalBytes()); // ~11.98 MB
    assertEquals(7, sizing.hashCount());
  }

  @Test
  void aBillionUrlsAtOneInTenThousandNeedAbout2point4GigabytesNotEighteenMegabytes() {
    BloomSizing sizing = BloomSizing.of(1_000_000_000, 0.0001);
    assertEquals(1.917e10, sizing.classicalBits(), 0.001e10);
    assertEquals(2.396e9, sizing.classicalBytes(), 0.001e9);
    assertEquals(13, sizing.hashCount());
  }

  @Test
  void hundredMillionBitsHoldingTenMillionWithSevenHashesGiveAbout0point0082() {
    assertEquals(0.0082, BloomSizing.classicalFpp(100_000_000, 10_000_000, 7), 0.00005);
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.1, 0.01, 0.001, 0.0001})
  void blockedLayoutMeetsTheTargetWithAtMostTwentyPercentMoreBits(double p) {
    BloomSizing sizing = BloomSizing.of(1_000_000, p);
    assertTrue(sizing.bits() >= sizing.classicalBits(), "never less than classical");
    assertTrue(sizing.overheadRatio() <= 1.2, () -> "overhead " + sizing.overheadRatio());
    assertTrue(sizing.expectedFppAt(1_000_000) <= 0.9 * p, () -> "fpp at n " + sizing.expectedFppAt(1_000_000));
    assertTrue(sizing.expectedFppAt(2_000_000) > p, "past capacity the rate climbs above p");
  }

  @Test
  void blockedRateMatchesClassicalWhenBlocksAreLightlyLoaded() {
    // With one element per 100 blocks, a block almost never holds a second element: rate ~ (k/512)^k * load.
    assertEquals(0.0, BloomSizing.blockedFpp(0, 7));
    assertTrue(BloomSizing.blockedFpp(0.01, 7) < 1e-12);
    // Saturated blocks answer yes to everything.
    assertEquals(1.0, BloomSizing.blockedFpp(10_000, 7), 1e-9);
  }

  @Test
  void sizesBeyondTwoToTheThirtyOneBitsHaveNoOverflow() {
    BloomSizing sizing = BloomSizing.of(1_000_000_000, 0.0001);
    assertTrue(sizing.bits() > Integer.MAX_VALUE * 8L);
    assertEquals(sizing.blocks() * 512, sizing.bits());
    assertEquals(sizing.bits() / 8, sizing.bytes());
  }

  @Test
  void tinyAndNearlyUselessFiltersStillHaveAtLeastOneBlockAndOneHash() {
    BloomSizing one = BloomSizing.of(1, 0.5);
    assertEquals(1, one.blocks());
    assertEquals(1, one.hashCount());
    assertTrue(BloomSizing.of(1_000_000, 0.99).blocks() >= 1);
  }

  @Test
  void refusesExpectedInsertionsBelowOne() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BloomSizing.of(0, 0.01));
    assertEquals("expected insertions (n) must be at least 1, was 0", e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(doubles = {0, 1, -0.5, 1.5, Double.NaN, 1e-11})
  void refusesRatesOutsideTheOpenUnitInterval(double p) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BloomSizing.of(1000, p));
    assertEquals("false-positive rate (p) must be in [1.0E-10, 1), was " + p, e.getMessage());
  }

  @Test
  void refusesFiltersLargerThanOneArray() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> BloomSizing.of(100_000_000_000L, 0.0001));
    assertTrue(e.getMessage().startsWith("a filter for n=100000000000 at p=1.0E-4 would need more than"),
        e.getMessage());
  }
}
