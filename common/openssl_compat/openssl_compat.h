#pragma once
// fleetcap-api and fleetcap-ingest call this once at start, so the linker keeps the library
// (nothing else references it: civetweb finds it by name at run time).

extern "C" int fleetcap_openssl_compat_loaded();
