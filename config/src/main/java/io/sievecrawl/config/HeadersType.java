package io.sievecrawl.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Request headers, {@code NAME: VALUE}, one per value given: the key repeats, each value adding a header (see
 * {@link CrawlSettings.Builder#parse}); an empty value is none.
 */
record HeadersType() implements ValueType<List<RequestHeader>> {

  /** The header {@code text} gives, as a list of one, or none for blank text. */
  @Override
  public List<RequestHeader> parse(String text) {
    return text.isBlank() ? List.of() : List.of(RequestHeader.parse(text));
  }

  @Override
  public void check(List<RequestHeader> value) {
  }

  /** The headers, {@code NAME: VALUE}, separated by commas; empty for none. */
  @Override
  public String format(List<RequestHeader> value) {
    return value.stream().map(RequestHeader::toString).collect(Collectors.joining(", "));
  }

  /** A quoted line per header, {@code ""} for none; the values of credentials hidden when {@code hide}. */
  @Override
  public List<String> configValues(List<RequestHeader> value, boolean hide) {
    return value.isEmpty() ? ValueChecks.quoted("")
        : value.stream().map(h -> "\"" + (hide ? h.shown() : h.toString()) + "\"").toList();
  }

  @Override
  public String description() {
    return RequestHeader.FORM + "; the key may be repeated";
  }

  @Override
  public List<RequestHeader> cast(Object value) {
    return ValueChecks.listOf(value, RequestHeader.class, this, "must be a list of request headers");
  }

  @Override
  public boolean repeatable() {
    return true;
  }
}
