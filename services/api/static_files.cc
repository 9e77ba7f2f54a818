#include "services/api/static_files.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/file_read.h"

namespace fleetcap::api {
namespace {

// Longer request paths are refused before any work: no file of the app has one.
constexpr size_t kMaxPathBytes = 1024;

// Built assets carry a content hash in their names, so they never change:
// browsers may keep them for a year. index.html names the current ones, so it
// is checked again on every load.
constexpr char kImmutable[] = "public, max-age=31536000, immutable";
constexpr char kRevalidate[] = "no-cache";

int PathHexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

StaticResponse TextResponse(int status, std::string text) {
  return {status, "text/plain; charset=utf-8", "no-store", std::move(text) + "\n"};
}

std::string RealPath(const std::string& path) {
  char resolved[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr) return "";
  return resolved;
}

}  // namespace

absl::StatusOr<std::string> StaticRelativePath(absl::string_view raw_path) {
  if (raw_path.size() > kMaxPathBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("path: ", raw_path.size(), " bytes, expected at most ", kMaxPathBytes));
  }
  if (raw_path.empty() || raw_path.front() != '/') {
    return absl::InvalidArgumentError("path: expected one starting with \"/\"");
  }
  std::string decoded;
  decoded.reserve(raw_path.size());
  for (size_t i = 0; i < raw_path.size(); ++i) {
    char c = raw_path[i];
    if (c == '%') {
      const int hi = i + 2 < raw_path.size() ? PathHexValue(raw_path[i + 1]) : -1;
      const int lo = hi >= 0 ? PathHexValue(raw_path[i + 2]) : -1;
      if (lo < 0) return absl::InvalidArgumentError(absl::StrCat("path: bad %-escape at byte ", i));
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    // NUL would cut the name short in the C library; a backslash is a
    // separator to some clients; control characters have no place in a name.
    if (c == '\0' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return absl::InvalidArgumentError("path: NUL, control character or backslash");
    }
    decoded.push_back(c);
  }
  std::vector<absl::string_view> segments;
  for (absl::string_view segment : absl::StrSplit(decoded, '/', absl::SkipEmpty())) {
    if (segment == "." || segment == "..") {
      return absl::InvalidArgumentError("path: \".\" and \"..\" segments are not served");
    }
    segments.push_back(segment);
  }
  return absl::StrJoin(segments, "/");
}

std::string ContentTypeFor(absl::string_view path) {
  static const std::pair<const char*, const char*> kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".map", "application/json"},
      {".webmanifest", "application/manifest+json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".jpg", "image/jpeg"},
      {".jpeg", "image/jpeg"},
      {".gif", "image/gif"},
      {".webp", "image/webp"},
      {".ico", "image/x-icon"},
      {".woff", "font/woff"},
      {".woff2", "font/woff2"},
      {".ttf", "font/ttf"},
      {".txt", "text/plain; charset=utf-8"},
      {".wasm", "application/wasm"},
  };
  const std::string lower = absl::AsciiStrToLower(path);
  for (const auto& [extension, type] : kTypes) {
    if (absl::EndsWith(lower, extension)) return type;
  }
  return "application/octet-stream";
}

bool IsApiPath(absl::string_view path) { return path == "/v1" || absl::StartsWith(path, "/v1/"); }

absl::StatusOr<std::unique_ptr<StaticFiles>> StaticFiles::Open(const std::string& root) {
  const std::string resolved = RealPath(root);
  struct stat info {};
  if (resolved.empty() || stat(resolved.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat("--web-root: \"", root, "\" is not a directory"));
  }
  const std::string index = resolved + "/index.html";
  if (stat(index.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat("--web-root: \"", root,
                                                   "\" has no index.html (build the web app: "
                                                   "npm --prefix web ci && npm --prefix web run build, then "
                                                   "--web-root web/dist)"));
  }
  return std::unique_ptr<StaticFiles>(new StaticFiles(resolved));
}

absl::StatusOr<std::string> StaticFiles::Resolve(const std::string& relative) const {
  const std::string file = RealPath(root_ + "/" + relative);
  struct stat info {};
  if (file.empty() || !absl::StartsWith(file, root_ + "/") || stat(file.c_str(), &info) != 0 ||
      !S_ISREG(info.st_mode)) {
    return absl::NotFoundError(relative);
  }
  return file;
}

StaticResponse StaticFiles::FileResponse(const std::string& file, const std::string& relative) const {
  auto body = ReadWholeFile("static file", file, kMaxFileBytes);
  if (!body.ok()) return TextResponse(404, absl::StrCat("/", relative, ": not served"));
  StaticResponse response;
  response.body = std::move(*body);
  response.content_type = ContentTypeFor(file);
  response.cache_control = absl::StartsWith(relative, "assets/") ? kImmutable : kRevalidate;
  return response;
}

StaticResponse StaticFiles::Serve(absl::string_view method, absl::string_view raw_path) const {
  if (method != "GET" && method != "HEAD") {
    return TextResponse(405, absl::StrCat(method, " ", raw_path.substr(0, 200), ": only GET and HEAD are served here"));
  }
  auto relative = StaticRelativePath(raw_path);
  if (!relative.ok()) return TextResponse(400, std::string(relative.status().message()));
  if (auto file = Resolve(*relative); file.ok()) return FileResponse(*file, *relative);
  // A missing asset is a stale or mistyped link, not a page of the app:
  // answering it with index.html would hand a script HTML. "/assets" alone
  // is no file: it is the dashboard's Assets page.
  if (absl::StartsWith(*relative, "assets/")) {
    return TextResponse(404, absl::StrCat("/", *relative, ": no such file"));
  }
  auto index = Resolve("index.html");
  if (!index.ok()) return TextResponse(404, "index.html: no such file under --web-root");
  StaticResponse response = FileResponse(*index, "index.html");
  return response;
}

StaticResponse StaticFiles::NotServedHint() {
  return TextResponse(404,
                      "fleetcap-api serves the dashboard when started with --web-root DIR (or FLEETCAP_WEB_ROOT), "
                      "DIR being the built web app (npm --prefix web run build makes web/dist). "
                      "The JSON API is under /v1/.");
}

}  // namespace fleetcap::api
