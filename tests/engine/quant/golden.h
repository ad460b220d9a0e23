// golden.h — reads tests/golden/quant/ (written by tests/golden/gen_quant.py from torch 1.13) and
// tests/golden/fidelity/ (gen_fidelity.py).
//
// A tiny JSON reader (objects, arrays, numbers, strings, booleans, null) for cases.json, raw .bin
// loaders, and bit-level comparisons. Numbers are doubles: every integer in the file (bit patterns,
// zero points, ranges) is below 2^53 and parses exactly.
//
//   const Json& doc = quant_golden();
//   for (const Json& c : doc["observers"].arr) { c["name"].str; c["scale_bits"][0].u32(); }
//   Tensor x = golden_data("gauss");                      // float32 with its stored shape
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/tensor.h"
#include "quant/observer.h"

namespace golden {

struct Json {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<Json> arr;
  std::vector<std::pair<std::string, Json>> obj;

  bool has(const std::string& key) const {
    for (const auto& kv : obj)
      if (kv.first == key) return true;
    return false;
  }
  const Json& operator[](const std::string& key) const {
    for (const auto& kv : obj)
      if (kv.first == key) return kv.second;
    FAIL("golden json: missing key '" << key << "'");
    return *this;
  }
  const Json& operator[](size_t i) const { return arr.at(i); }
  size_t size() const { return arr.size(); }
  int64_t i64() const { return static_cast<int64_t>(num); }
  uint32_t u32() const { return static_cast<uint32_t>(num); }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& s) : s_(s) {}
  Json parse() {
    ws();
    Json v;
    const char c = s_.at(i_);
    if (c == '{') {
      v.kind = Json::Object;
      ++i_;
      ws();
      if (s_[i_] == '}') return ++i_, v;
      for (;;) {
        ws();
        std::string key = string();
        ws();
        expect(':');
        v.obj.emplace_back(std::move(key), parse());
        ws();
        if (s_[i_] == ',') { ++i_; continue; }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = Json::Array;
      ++i_;
      ws();
      if (s_[i_] == ']') return ++i_, v;
      for (;;) {
        v.arr.push_back(parse());
        ws();
        if (s_[i_] == ',') { ++i_; continue; }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = Json::String;
      v.str = string();
      return v;
    }
    if (s_.compare(i_, 4, "true") == 0) { i_ += 4; v.kind = Json::Bool; v.b = true; return v; }
    if (s_.compare(i_, 5, "false") == 0) { i_ += 5; v.kind = Json::Bool; return v; }
    if (s_.compare(i_, 4, "null") == 0) { i_ += 4; return v; }
    char* end = nullptr;
    v.kind = Json::Number;
    v.num = std::strtod(s_.c_str() + i_, &end);
    if (end == s_.c_str() + i_) FAIL("golden json: bad value at offset " << i_);
    i_ = static_cast<size_t>(end - s_.c_str());
    return v;
  }

 private:
  void ws() { while (i_ < s_.size() && std::strchr(" \t\r\n", s_[i_])) ++i_; }
  void expect(char c) {
    if (s_.at(i_) != c) FAIL("golden json: expected '" << c << "' at offset " << i_);
    ++i_;
  }
  std::string string() {  // the generator writes plain ASCII keys and values without escapes
    expect('"');
    const size_t end = s_.find('"', i_);
    std::string out = s_.substr(i_, end - i_);
    i_ = end + 1;
    return out;
  }
  const std::string& s_;
  size_t i_ = 0;
};

inline std::string golden_path(const std::string& file) {
  return std::string(PT_SOURCE_DIR) + "/tests/golden/quant/" + file;
}

inline std::vector<char> read_bytes(const std::string& file) {
  std::ifstream f(golden_path(file), std::ios::binary);
  if (!f) FAIL("missing golden file " << golden_path(file));
  return std::vector<char>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

inline const Json& quant_golden() {
  static const Json doc = [] {
    const std::vector<char> bytes = read_bytes("cases.json");
    const std::string text(bytes.begin(), bytes.end());
    return JsonParser(text).parse();
  }();
  return doc;
}

// tests/golden/fidelity/cases.json (tests/golden/gen_fidelity.py): every value inline, no .bin files.
inline const Json& fidelity_golden() {
  static const Json doc = [] {
    const std::vector<char> bytes = read_bytes("../fidelity/cases.json");
    const std::string text(bytes.begin(), bytes.end());
    return JsonParser(text).parse();
  }();
  return doc;
}

inline pt::Tensor golden_data(const std::string& name) {
  const Json& d = quant_golden()["data"][name];
  pt::Shape shape;
  for (const Json& s : d["shape"].arr) shape.push_back(s.i64());
  pt::Tensor t = pt::Tensor::empty(shape);
  const std::vector<char> bytes = read_bytes(d["file"].str);
  REQUIRE(bytes.size() == t.nbytes());
  std::memcpy(t.bytes(), bytes.data(), bytes.size());
  return t;
}

inline uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

inline float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// A float32 tensor's elements as bit patterns.
inline std::vector<uint32_t> tensor_bits(const pt::Tensor& t) {
  std::vector<uint32_t> out;
  for (float f : t.span<float>()) out.push_back(bits(f));
  return out;
}

inline std::vector<uint32_t> json_u32(const Json& a) {
  std::vector<uint32_t> out;
  for (const Json& v : a.arr) out.push_back(v.u32());
  return out;
}

inline std::vector<int64_t> json_i64(const Json& a) {
  std::vector<int64_t> out;
  for (const Json& v : a.arr) out.push_back(v.i64());
  return out;
}

inline std::vector<int64_t> int_values(const pt::Tensor& t) {
  std::vector<int64_t> out;
  for (int32_t v : t.span<int32_t>()) out.push_back(v);
  return out;
}

// How many bytes differ between a tensor's storage and a golden .bin (all, if sizes differ).
inline size_t byte_mismatches(const pt::Tensor& t, const std::string& file) {
  const std::vector<char> want = read_bytes(file);
  if (want.size() != t.nbytes()) return std::max(want.size(), t.nbytes());
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) bad += static_cast<char>(t.bytes()[i]) != want[i];
  return bad;
}

// The generator's kwargs object as ObserverArgs (torch spellings: "qint8", "per_tensor_affine").
inline pt::ObserverArgs observer_args(const Json& kw) {
  pt::ObserverArgs a;
  for (const auto& [k, v] : kw.obj) {
    if (k == "dtype") a.dtype = pt::dtype_from_name(v.str);
    else if (k == "qscheme") a.qscheme = pt::qscheme_from_name(v.str);
    else if (k == "reduce_range") a.reduce_range = v.b;
    else if (k == "quant_min") a.quant_min = v.i64();
    else if (k == "quant_max") a.quant_max = v.i64();
    else if (k == "eps") a.eps = static_cast<float>(v.num);
    else if (k == "ch_axis") a.ch_axis = v.i64();
    else if (k == "averaging_constant") a.averaging_constant = v.num;
    else if (k == "observer") a.observer = v.str;
    else FAIL("golden kwargs: unhandled key " << k);
  }
  return a;
}

// A one-line description of a case for failure messages.
inline std::string describe(const Json& v) {
  std::ostringstream o;
  switch (v.kind) {
    case Json::Null: o << "null"; break;
    case Json::Bool: o << (v.b ? "true" : "false"); break;
    case Json::Number: o << v.num; break;
    case Json::String: o << '"' << v.str << '"'; break;
    case Json::Array:
      o << '[';
      for (size_t i = 0; i < v.arr.size(); ++i) o << (i ? "," : "") << describe(v.arr[i]);
      o << ']';
      break;
    case Json::Object:
      o << '{';
      for (size_t i = 0; i < v.obj.size(); ++i) o << (i ? "," : "") << v.obj[i].first << ':' << describe(v.obj[i].second);
      o << '}';
      break;
  }
  return o.str();
}

}  // namespace golden
