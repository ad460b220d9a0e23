// golden_floats.h — a raw golden file of float32 values (tests/golden/<path>, written by a tests/golden/gen_*.py script),
// read whole; a missing file fails the test that asked for it.
//
//   const std::vector<float> want = golden_floats("random/randn_n1000.bin");
#pragma once
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

inline std::vector<float> golden_floats(const std::string& path_in_golden) {
  const std::string path = std::string(PT_SOURCE_DIR) + "/tests/golden/" + path_in_golden;
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) FAIL("missing golden file " << path);
  std::vector<float> v(static_cast<size_t>(f.tellg()) / sizeof(float));
  f.seekg(0);
  f.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(float)));
  return v;
}
