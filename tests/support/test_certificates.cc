#include "tests/support/test_certificates.h"

#include <cstdlib>

namespace fleetcap::testing {

absl::StatusOr<std::unique_ptr<TestCertificates>> TestCertificates::Make() {
  auto out = std::unique_ptr<TestCertificates>(new TestCertificates());
  if (out->dir_.path().empty()) return absl::InternalError("no directory for the certificates");
  const std::string script =
      "set -e; cd " + out->dir_.path() +
      "; "
      "for ca in ca other-ca; do "
      "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout $ca.key -out $ca.pem "
      "-days 1 -subj /CN=fleetcap-test-$ca 2>/dev/null; done; "
      "for who in server client rogue; do "
      "openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout $who.key -out $who.csr "
      "-subj /CN=$who 2>/dev/null; done; "
      "printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\nextendedKeyUsage=serverAuth\\n' > server.ext; "
      "printf 'extendedKeyUsage=clientAuth\\n' > client.ext; cp client.ext rogue.ext; "
      "for pair in server:ca client:ca rogue:other-ca; do who=${pair%%:*}; ca=${pair#*:}; "
      "openssl x509 -req -in $who.csr -CA $ca.pem -CAkey $ca.key -CAcreateserial -out $who.pem -days 1 "
      "-extfile $who.ext 2>/dev/null; done";
  if (std::system(script.c_str()) != 0) return absl::InternalError("openssl could not make the test certificates");
  return out;
}

}  // namespace fleetcap::testing
