#pragma once
// The dashboard's files (fleetcap-api --web-root DIR, the built web/dist),
// served by the HTTP gateway for every path outside /v1/: a file under DIR by
// its path, index.html for any other GET (the web app's client-side routes).
//
// The path comes from a stranger, so it is taken apart before the disk is
// touched: it must be origin-form ("/..."), its %-escapes well formed, with
// no NUL, control character or backslash once decoded, and no "." or ".."
// segment (however it was spelt). What remains is resolved with realpath and
// must still lie under DIR, so a symbolic link inside DIR cannot lead out of it.
//
// The files need no token: they hold no data, only the app that asks /v1/
// for it with the token its user gives.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fleetcap::api {

struct StaticResponse {
  int status = 200;
  std::string content_type;
  std::string cache_control;
  std::string body;
};

// The request path (still %-encoded, without its query) as a path relative to
// the web root: "" for "/", "assets/app.js" for "/assets/app.js".
// INVALID_ARGUMENT, naming what is wrong, for a path no file can have.
absl::StatusOr<std::string> StaticRelativePath(absl::string_view raw_path);

// The Content-Type of a file by its extension (application/octet-stream when unknown).
std::string ContentTypeFor(absl::string_view path);

// True for the paths the web app never serves: the JSON API's.
bool IsApiPath(absl::string_view path);

class StaticFiles {
 public:
  // The largest file served, in bytes (a built bundle's chunks are far smaller).
  static constexpr size_t kMaxFileBytes = 32 * 1024 * 1024;

  // `root` must be a directory holding index.html; the error names --web-root.
  static absl::StatusOr<std::unique_ptr<StaticFiles>> Open(const std::string& root);

  // The answer to `method` `raw_path`: the file, index.html, or an error (400, 404, 405).
  StaticResponse Serve(absl::string_view method, absl::string_view raw_path) const;

  // The answer to "/" when no --web-root was given: how to serve the dashboard.
  static StaticResponse NotServedHint();

  const std::string& root() const { return root_; }

 private:
  explicit StaticFiles(std::string root) : root_(std::move(root)) {}
  // `relative`'s file, resolved under root_; NOT_FOUND when absent, a
  // directory, or outside root_ once links are followed.
  absl::StatusOr<std::string> Resolve(const std::string& relative) const;
  StaticResponse FileResponse(const std::string& file, const std::string& relative) const;

  std::string root_;  // realpath of --web-root
};

}  // namespace fleetcap::api
