package io.sievecrawl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class HostPinTest {

  @Test
  void aPinIsWrittenAsCurlWritesIt() {
    assertEquals(new HostPin("www.example.com", 443, "192.0.2.10"), HostPin.parse("WWW.Example.com:443:192.0.2.10"));
    assertEquals(new HostPin("example.com", 0, "::1"), HostPin.parse("example.com:*:[::1]"));
    assertEquals(new HostPin("example.com", 80, "2001:db8::5"), HostPin.parse("example.com.:80:2001:db8::5"));
    assertEquals("example.com:*:[::1]", HostPin.parse("example.com:*:::1").toString());
  }

  @Test
  void aBadPinSaysWhatIsWrong() {
    assertTrue(message("example.com:443").contains("must be HOST:PORT:ADDRESS"), message("example.com:443"));
    assertTrue(message("exa mple.com:443:1.2.3.4").contains("is not a host name"));
    assertTrue(message("example.com:0:1.2.3.4").contains("the port must be 1 to 65535 or *, not '0'"));
    assertTrue(message("example.com:http:1.2.3.4").contains("not 'http'"));
    assertTrue(message("example.com:80:1.2.3.400").contains("the address '1.2.3.400' is not an IPv4 or IPv6"));
    assertTrue(message("example.com:80:example.org").contains("is not an IPv4 or IPv6 address"),
        "an address, never a name to look up");
  }

  @Test
  void pinsAreASettingAndOneHostTakesOneAddress() {
    CrawlSettings s = CrawlSettings.builder()
        .parse(Setting.RESOLVE, "a.test:80:127.0.0.1  b.test:*:127.0.0.2 a.test:8080:127.0.0.1", "--resolve").build();
    assertEquals(3, s.fetch().pins().size());
    assertEquals(List.of(), CrawlSettings.defaults().fetch().pins());
    SettingsException e = assertThrows(SettingsException.class, () -> CrawlSettings.builder()
        .parse(Setting.RESOLVE, "a.test:80:127.0.0.1 a.test:443:127.0.0.2", "--resolve").build());
    assertTrue(e.getMessage().contains("a.test is pinned to 127.0.0.1 and to 127.0.0.2"), e.getMessage());
    CrawlSettings.Builder reloaded = CrawlSettings.builder();
    ConfigFile.parse("saved.conf", s.toConfigText(), reloaded);
    assertEquals(s.fetch().pins(), reloaded.build().fetch().pins(), "a crawl directory's settings keep them");
  }

  private static String message(String pin) {
    return assertThrows(IllegalArgumentException.class, () -> HostPin.parse(pin)).getMessage();
  }
}
