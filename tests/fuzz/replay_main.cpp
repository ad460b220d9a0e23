// replay_main.cpp — runs a fuzz target (tests/fuzz/targets/<target>.cpp) over files instead of libFuzzer: every
// file in each directory given (the committed corpus tests/fuzz/corpus/<target>/ and crash reproducers
// tests/fuzz/crashes/<target>/), once each. A typed engine error is an answer (fuzz_input.h expect_typed);
// anything else a target lets escape fails the run, naming the file. ctest runs it as "fuzz:<target>".
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  size_t files = 0;
  for (int i = 1; i < argc; ++i) {
    if (!fs::is_directory(argv[i])) continue;  // no reproducers yet
    std::vector<fs::path> paths;
    for (const auto& e : fs::directory_iterator(argv[i]))
      if (e.is_regular_file() && e.path().filename().string()[0] != '.') paths.push_back(e.path());
    std::sort(paths.begin(), paths.end());
    for (const fs::path& p : paths) {
      std::ifstream f(p, std::ios::binary);
      const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
      try {
        LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
      } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: escaped %s\n", p.c_str(), e.what());
        return 1;
      }
      ++files;
    }
  }
  std::printf("replayed %zu inputs\n", files);
  return 0;
}
