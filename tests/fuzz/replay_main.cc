// Replays inputs through a fuzz target without libFuzzer, so gcc builds (and
// the asan pass) run every committed input: the seed corpus, which must not be
// empty, then the regressions (crashes found by `make fuzz`, kept after their
// fix), which may not exist yet. A crash, sanitizer report or abort fails the
// test; the file being replayed is printed first so the failure names it.
//
//   fuzz_replay_<target> CORPUS_DIR [REGRESSIONS_DIR]

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;

// The regular files under `dir`, sorted so runs are repeatable.
std::vector<fs::path> FilesUnder(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().filename().string()[0] != '.') files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void Replay(const fs::path& file) {
  std::fprintf(stderr, "replaying %s\n", file.c_str());
  // Read into an allocation of exactly the input's size, so ASan sees a read
  // past its end.
  std::vector<uint8_t> data(fs::file_size(file));
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (f == nullptr || std::fread(data.data(), 1, data.size(), f) != data.size()) {
    std::perror(file.c_str());
    std::exit(1);
  }
  std::fclose(f);
  LLVMFuzzerTestOneInput(data.data(), data.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR [REGRESSIONS_DIR]\n", argv[0]);
    return 2;
  }
  const fs::path corpus = argv[1];
  if (!fs::is_directory(corpus) || FilesUnder(corpus).empty()) {
    std::fprintf(stderr, "%s: no seed corpus (an empty replay would prove nothing)\n", corpus.c_str());
    return 1;
  }
  size_t replayed = 0;
  for (const auto& file : FilesUnder(corpus)) {
    Replay(file);
    ++replayed;
  }
  if (argc == 3 && fs::is_directory(argv[2])) {
    for (const auto& file : FilesUnder(argv[2])) {
      Replay(file);
      ++replayed;
    }
  }
  std::fprintf(stderr, "replayed %zu inputs\n", replayed);
  return 0;
}
