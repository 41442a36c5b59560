package io.sievecrawl.crawler.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link SessionIds}' rules as tables, and its quick check against what it removes. */
class SessionIdsTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', emptyValue = "", value = {
      "a=1&jsessionid=2&b=3 | a=1&b=3",
      "PHPSESSID=abc&page=2 | page=2",
      "sessionid=x | ''",
      "session_id=x&a | a",
      "ASPSESSIONIDQQCB=X&a=1 | a=1",
      "cfid=1&cftoken=2&x=3 | x=3",
      "zenid=9&oscsid=8&sess_id=7&y | y",
      "jsessionid | ''",
      "a=1&&jsessionid=2 | a=1&",
      "jsessionid=1& | ''",
      "'' | ''",
      "sid=42 | sid=42",
      "sid=introduction-to-java | sid=introduction-to-java",
      "sid=abcdefabcdefabcdef | sid=abcdefabcdefabcdef",
      "sid=0cc175b9c0f1b6a | sid=0cc175b9c0f1b6a",
      "sid=0cc175b9c0f1b6a8&a=1 | a=1",
      "SID=0cc175b9c0f1b6a831c399e269772661 | ''",
      "sid=550e8400-e29b-41d4-a716-446655440000&page=2 | page=2",
      "sid=k3v0q8l2m9n1b4c7x5z6 | ''",
      "sid=k3v0q8l2m9n1b4c7x5z | sid=k3v0q8l2m9n1b4c7x5z",
      "side=1&asid=0cc175b9c0f1b6a8&q=jsessionid | side=1&asid=0cc175b9c0f1b6a8&q=jsessionid",
  })
  void aQueryLosesItsSessionIdsAndKeepsTheRestInOrder(String query, String expected) {
    assertEquals(expected, SessionIds.removeFromQuery(query));
    if (!expected.equals(query)) {
      assertTrue(SessionIds.mayBeInQuery(query, 0, query.length()), "the quick check lets it through: " + query);
    }
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "/x;jsessionid=1;type=a/y | /x;type=a/y",
      "/x;type=a;JSESSIONID=1/y | /x;type=a/y",
      "/a;jsessionid=1/b;phpsessid=2 | /a/b",
      "/p;sessionid= | /p",
      "/p;sid=42/x | /p;sid=42/x",
      "/p;sid=0cc175b9c0f1b6a831c399e269772661/x | /p/x",
      "/p;jsessionid | /p;jsessionid",
      "/p;xjsessionid=1 | /p;xjsessionid=1",
      "/p;cfid=1;zenid=2;aspsessionidab=3 | /p;cfid=1;zenid=2;aspsessionidab=3",
  })
  void aPathLosesItsSessionIdParametersOnly(String path, String expected) {
    assertEquals(expected, SessionIds.removeFromPath(path));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(delimiter = '|', value = {
      "sid=42 | true",
      "a=1&SessionId | true",
      "x=1&ASPSESSIONIDXY=1 | true",
      "side=1&asid=2 | false",
      "a=jsessionid | false",
      "a=1&b=2 | false",
  })
  void theQuickCheckLooksAtNamesOnly(String query, boolean mayBe) {
    assertEquals(mayBe, SessionIds.mayBeInQuery(query, 0, query.length()));
  }

  @Test
  void theQuickChecksReadOnlyTheirPart() throws InvalidUrlException {
    assertTrue(SessionIds.mayBeInQuery("/p?x=1&cfid=2", 3, 13));
    assertFalse(SessionIds.mayBeInQuery("/p?x=1&cfid=2", 3, 6));
    UrlNormalizer keeping = new UrlNormalizer(2048, false);
    assertTrue(SessionIds.mayBeIn(keeping.get("http://h/p;x=1")), "any path parameter");
    assertTrue(SessionIds.mayBeIn(keeping.get("http://h/p?PHPSESSID=1")));
    assertFalse(SessionIds.mayBeIn(keeping.get("http://h/p?a=1&b=sid")));
  }
}
