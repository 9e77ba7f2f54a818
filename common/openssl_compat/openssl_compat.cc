// Lets Debian 12's civetweb serve HTTPS with OpenSSL 3.
//
// civetweb loads OpenSSL at run time (dlopen("libssl.so"), then dlsym of each
// function) and asks for SSL_get_peer_certificate, which OpenSSL 3 only has as
// a macro over SSL_get1_peer_certificate; one missing symbol disables its TLS.
// This library is named libssl.so (soname too) and linked into fleetcap-api
// and fleetcap-ingest, so civetweb's dlopen finds it already loaded: dlsym
// then sees this function and, through this library's dependency on the real
// libssl.so.3, all others.

#include "common/openssl_compat/openssl_compat.h"

#include <openssl/ssl.h>

#undef SSL_get_peer_certificate

extern "C" __attribute__((visibility("default"))) X509* SSL_get_peer_certificate(const SSL* ssl) {
  return SSL_get1_peer_certificate(ssl);
}

extern "C" __attribute__((visibility("default"))) int fleetcap_openssl_compat_loaded() { return 1; }
