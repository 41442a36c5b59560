package io.sievecrawl.crawler.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How a request record shows credentials: the scheme and the cookie names stay, every value goes. */
class CredentialMaskTest {

  @Test
  void authorizationKeepsItsSchemeAlone() {
    assertEquals("Basic <hidden>", CredentialMask.value("Authorization", "Basic bWU6c2VjcmV0"));
    assertEquals("Bearer <hidden>", CredentialMask.value("authorization", "Bearer eyJhbGciOi.x.y"));
    assertEquals("Digest <hidden>", CredentialMask.value("Authorization", "Digest username=\"me\", nonce=\"1\""));
    // a bare key is the credential itself, and a first word that is no token is no scheme
    assertEquals("<hidden>", CredentialMask.value("Authorization", "0123456789abcdef"));
    assertEquals("<hidden>", CredentialMask.value("Authorization", "a:b c"));
    assertEquals("<hidden>", CredentialMask.value("Authorization", ""));
  }

  @Test
  void cookieKeepsItsNamesAlone() {
    assertEquals("session=<hidden>; lang=<hidden>", CredentialMask.value("Cookie", "session=s3cr3t; lang=fr"));
    assertEquals("a=<hidden>; <hidden>", CredentialMask.value("COOKIE", "a=1;;  justavalue ; "));
    assertEquals("<hidden>", CredentialMask.value("Cookie", "=x"));
    assertEquals("<hidden>", CredentialMask.value("Cookie", ""));
  }

  @Test
  void otherFieldsAreLeftAsTheyAre() {
    assertEquals("text/html", CredentialMask.value("Accept", "text/html"));
    assertEquals("Bearer x", CredentialMask.value("X-Authorization", "Bearer x"));
  }
}
