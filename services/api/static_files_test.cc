#include "services/api/static_files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/test_dir.h"

namespace fleetcap::api {
namespace {

using ::testing::HasSubstr;

// What must never be read through the dashboard's path: each is refused
// before the disk is touched, however it is spelt.
TEST(StaticRelativePath, RefusesTraversalAndHostileBytes) {
  for (const char* path : {
           "/..",
           "/../etc/passwd",
           "/assets/../../etc/passwd",
           "/%2e%2e/etc/passwd",
           "/%2E%2E/etc/passwd",
           "/.%2e/etc/passwd",
           "/%2e./secret",
           "/assets/%2e%2e%2f%2e%2e%2fetc/passwd",
           "/./index.html",
           "/a/./b",
           "/index.html%00.js",
           "/%00",
           "/a%5c..%5c..%5cetc%5cpasswd",
           "/a\\b",
           "/a%0ab",
           "/a%7f",
           "etc/passwd",
           "",
           "http://evil.example/etc/passwd",
           "/%zz",
           "/%2",
           "/%",
       }) {
    auto relative = StaticRelativePath(path);
    EXPECT_FALSE(relative.ok()) << "\"" << path << "\" gave \"" << relative.value_or("") << "\"";
    if (!relative.ok()) {
      EXPECT_THAT(relative.status().message(), HasSubstr("path")) << path;
    }
  }
  EXPECT_FALSE(StaticRelativePath("/" + std::string(2000, 'a')).ok());
}

TEST(StaticRelativePath, DecodesWhatAFileMayBeCalled) {
  EXPECT_EQ(StaticRelativePath("/").value(), "");
  EXPECT_EQ(StaticRelativePath("/fleet").value(), "fleet");
  EXPECT_EQ(StaticRelativePath("/assets/index-AbC123.js").value(), "assets/index-AbC123.js");
  EXPECT_EQ(StaticRelativePath("/assets//x.css").value(), "assets/x.css");
  EXPECT_EQ(StaticRelativePath("/a%20b").value(), "a b");
  EXPECT_EQ(StaticRelativePath("/.well-known/x").value(), ".well-known/x");
  EXPECT_EQ(StaticRelativePath("/a..b").value(), "a..b");
}

TEST(ContentTypeFor, ByExtension) {
  EXPECT_EQ(ContentTypeFor("index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("assets/app-1.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("assets/app-1.CSS"), "text/css; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("favicon.svg"), "image/svg+xml");
  EXPECT_EQ(ContentTypeFor("font.woff2"), "font/woff2");
  EXPECT_EQ(ContentTypeFor("README"), "application/octet-stream");
}

TEST(IsApiPath, OnlyV1AndBelow) {
  EXPECT_TRUE(IsApiPath("/v1"));
  EXPECT_TRUE(IsApiPath("/v1/fleet/summary"));
  EXPECT_FALSE(IsApiPath("/v1x"));
  EXPECT_FALSE(IsApiPath("/"));
  EXPECT_FALSE(IsApiPath("/fleet"));
}

class StaticFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(root_.path() + "/web/assets");
    std::filesystem::create_directories(root_.path() + "/web/empty-dir");
    Write("web/index.html", "<!doctype html><title>app</title>");
    Write("web/assets/app-1a2b.js", "console.log(1)");
    Write("web/favicon.svg", "<svg/>");
    Write("secret.txt", "outside the web root");
    std::filesystem::create_symlink(root_.path() + "/secret.txt", root_.path() + "/web/leak.txt");
    std::filesystem::create_directory_symlink(root_.path(), root_.path() + "/web/assets/up");
    auto files = StaticFiles::Open(root_.path() + "/web");
    ASSERT_TRUE(files.ok()) << files.status();
    files_ = std::move(*files);
  }
  void Write(const std::string& name, const std::string& text) { root_.Write(name, text); }
  StaticResponse Get(const std::string& path) { return files_->Serve("GET", path); }

  testing::TestDir root_{"static-files"};
  std::unique_ptr<StaticFiles> files_;
};

TEST_F(StaticFilesTest, SymbolicLinksOutOfTheRootAreNotFollowed) {
  for (const char* path : {"/leak.txt", "/assets/up/secret.txt", "/assets/up/web/index.html"}) {
    StaticResponse response = Get(path);
    EXPECT_NE(response.body, "outside the web root") << path;
    EXPECT_THAT(response.status, ::testing::AnyOf(404, 200)) << path;
    if (response.status == 200) {
      EXPECT_THAT(response.body, HasSubstr("<title>app</title>")) << path;
    }
  }
  // Under /assets/ a miss is a 404, never the page.
  EXPECT_EQ(Get("/assets/up/secret.txt").status, 404);
}

TEST_F(StaticFilesTest, TraversalIsABadRequest) {
  for (const char* path : {"/../secret.txt", "/%2e%2e/secret.txt", "/assets/..%2f..%2fsecret.txt", "/x%00"}) {
    StaticResponse response = Get(path);
    EXPECT_EQ(response.status, 400) << path;
    EXPECT_THAT(response.body, HasSubstr("path")) << path;
    EXPECT_EQ(response.content_type, "text/plain; charset=utf-8");
  }
}

TEST_F(StaticFilesTest, OnlyGetAndHead) {
  EXPECT_EQ(files_->Serve("POST", "/index.html").status, 405);
  EXPECT_EQ(files_->Serve("DELETE", "/").status, 405);
  EXPECT_EQ(files_->Serve("HEAD", "/").status, 200);
}

TEST_F(StaticFilesTest, AssetsAreImmutableAndTheirMissesAreNotFound) {
  StaticResponse js = Get("/assets/app-1a2b.js");
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.body, "console.log(1)");
  EXPECT_EQ(js.content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(js.cache_control, "public, max-age=31536000, immutable");
  StaticResponse missing = Get("/assets/app-old.js");
  EXPECT_EQ(missing.status, 404);
  EXPECT_THAT(missing.body, HasSubstr("assets/app-old.js"));
}

TEST_F(StaticFilesTest, ClientRoutesGetTheIndexWhichIsRevalidated) {
  // "/assets" is the dashboard's Assets page, though the build's folder of assets has the name.
  for (const char* path : {"/", "/index.html", "/fleet", "/chargeback/team-00", "/empty-dir", "/signin?x", "/assets",
                           "/assets?group_by=node"}) {
    StaticResponse page = Get(path);
    EXPECT_EQ(page.status, 200) << path;
    EXPECT_EQ(page.body, "<!doctype html><title>app</title>") << path;
    EXPECT_EQ(page.content_type, "text/html; charset=utf-8") << path;
    EXPECT_EQ(page.cache_control, "no-cache") << path;
  }
  StaticResponse icon = Get("/favicon.svg");
  EXPECT_EQ(icon.content_type, "image/svg+xml");
  EXPECT_EQ(icon.cache_control, "no-cache");
}

TEST(StaticFilesOpen, NamesTheFlagWhenTheRootIsNotABuiltApp) {
  testing::TestDir dir("static-open");
  auto missing = StaticFiles::Open(dir.path() + "/nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("--web-root"));
  auto no_index = StaticFiles::Open(dir.path());
  ASSERT_FALSE(no_index.ok());
  EXPECT_THAT(no_index.status().message(), HasSubstr("index.html"));
  auto file = StaticFiles::Open(dir.Write("f", "x"));
  EXPECT_FALSE(file.ok());
}

TEST(StaticFilesHint, SaysHowToServeTheDashboard) {
  StaticResponse hint = StaticFiles::NotServedHint();
  EXPECT_EQ(hint.status, 404);
  EXPECT_THAT(hint.body, HasSubstr("--web-root"));
}

}  // namespace
}  // namespace fleetcap::api
