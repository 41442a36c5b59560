package io.sievecrawl.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import okhttp3.Dns;
import org.junit.jupiter.api.Test;

class PrivateAddressesTest {
  @Test
  void localAddressesAreRecognized() throws UnknownHostException {
    for (String local : new String[] {"127.0.0.1", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254",
        "100.64.0.1", "0.0.0.0", "::1", "fe80::1", "fd12:3456::1"}) {
      assertTrue(PrivateAddresses.isLocal(InetAddress.getByName(local)), local);
    }
    for (String global : new String[] {"8.8.8.8", "93.184.216.34", "100.128.0.1", "2001:4860:4860::8888"}) {
      assertFalse(PrivateAddresses.isLocal(InetAddress.getByName(global)), global);
    }
  }

  @Test
  void literalsAndLocalhostNamesAreLocalWithoutALookup() {
    assertTrue(PrivateAddresses.isLocalLiteral("localhost"));
    assertTrue(PrivateAddresses.isLocalLiteral("api.localhost"));
    assertTrue(PrivateAddresses.isLocalLiteral("[::1]"));
    assertTrue(PrivateAddresses.isLocalLiteral("192.168.0.10"));
    assertFalse(PrivateAddresses.isLocalLiteral("example.com"));
    assertFalse(PrivateAddresses.isLocalLiteral("1.1.1.1"));
  }

  @Test
  void theResolverRefusesHostsThatResolveOnlyToLocalAddressesUnlessAllowed() throws UnknownHostException {
    UnknownHostException e = assertThrows(UnknownHostException.class,
        () -> PrivateAddresses.asDns(host -> false).lookup("localhost"));
    assertTrue(e.getMessage().startsWith("localhost resolves only to local addresses"), e.getMessage());
    assertEquals(Dns.SYSTEM.lookup("localhost"), PrivateAddresses.asDns(host -> host.equals("localhost"))
        .lookup("localhost"), "allowed, it gives the local addresses the system resolver gives");
    assertEquals(FailureCause.of(e).permanent(), true, "refused at once, not retried");
  }
}
