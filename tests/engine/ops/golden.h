// golden.h — reads the torch-made golden files of tests/golden/<folder> (gen_models.py, gen_qat.py).
//
//   Golden g("ops");                  // tests/golden/models/ops.json + ops.bin
//   Golden q("convbn", "qat");        // tests/golden/qat/convbn.json + convbn.bin
//   pt::Tensor x = g.tensor("relu.x");
//   g.json_ints("input_shape");       // a top-level int list of the .json
//
// The .json is parsed by a small reader that accepts the subset gen_models.py writes: objects,
// arrays, strings without escapes, numbers, true / false / null.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace golden {

struct Json {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  double number = 0;
  std::string text;
  std::vector<Json> items;
  std::map<std::string, Json> fields;
  const Json& at(const std::string& k) const {
    auto it = fields.find(k);
    if (it == fields.end()) throw std::runtime_error("golden json: no key " + k);
    return it->second;
  }
};

class JsonReader {
 public:
  explicit JsonReader(const std::string& s) : s_(s) {}
  Json parse() {
    Json j = value();
    ws();
    if (i_ != s_.size()) fail("trailing text");
    return j;
  }

 private:
  void ws() {
    while (i_ < s_.size() && std::strchr(" \t\r\n", s_[i_])) ++i_;
  }
  [[noreturn]] void fail(const char* what) { throw std::runtime_error(std::string("golden json: ") + what); }
  bool eat(char c) {
    ws();
    if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
    return false;
  }
  Json value() {
    ws();
    if (i_ >= s_.size()) fail("unexpected end");
    Json j;
    char c = s_[i_];
    if (c == '{') {
      ++i_;
      j.kind = Json::Object;
      if (eat('}')) return j;
      do {
        ws();
        std::string k = value().text;
        if (!eat(':')) fail("expected ':'");
        j.fields[k] = value();
      } while (eat(','));
      if (!eat('}')) fail("expected '}'");
    } else if (c == '[') {
      ++i_;
      j.kind = Json::Array;
      if (eat(']')) return j;
      do j.items.push_back(value());
      while (eat(','));
      if (!eat(']')) fail("expected ']'");
    } else if (c == '"') {
      size_t end = s_.find('"', i_ + 1);
      if (end == std::string::npos) fail("unterminated string");
      j.kind = Json::String;
      j.text = s_.substr(i_ + 1, end - i_ - 1);
      i_ = end + 1;
    } else if (s_.compare(i_, 4, "true") == 0 || s_.compare(i_, 5, "false") == 0) {
      j.kind = Json::Bool;
      j.number = s_[i_] == 't';
      i_ += s_[i_] == 't' ? 4 : 5;
    } else if (s_.compare(i_, 4, "null") == 0) {
      i_ += 4;
    } else {
      size_t used = 0;
      j.kind = Json::Number;
      j.number = std::stod(s_.substr(i_, 32), &used);
      i_ += used;
    }
    return j;
  }
  const std::string& s_;
  size_t i_ = 0;
};

inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open golden file " + path);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

class Golden {
 public:
  // folder: a folder of tests/golden ("models" by gen_models.py, "qat" by gen_qat.py)
  explicit Golden(const std::string& name, const std::string& folder = "models") {
    const std::string base = std::string(PT_SOURCE_DIR) + "/tests/golden/" + folder + "/" + name;
    std::string text = read_file(base + ".json");
    json_ = JsonReader(text).parse();
    bin_ = read_file(base + ".bin");
  }
  bool has(const std::string& name) const { return find(name) != nullptr; }
  pt::Tensor tensor(const std::string& name) const {
    const Json* t = find(name);
    if (!t) throw std::runtime_error("golden: no tensor " + name);
    pt::Shape shape;
    for (const Json& d : t->at("shape").items) shape.push_back(static_cast<int64_t>(d.number));
    pt::Tensor out = pt::Tensor::empty(shape);
    const size_t offset = static_cast<size_t>(t->at("offset").number) * 4;
    if (offset + out.nbytes() > bin_.size()) throw std::runtime_error("golden: tensor " + name + " past end of .bin");
    std::memcpy(out.data<float>(), bin_.data() + offset, out.nbytes());  // little-endian float32 on both targets
    return out;
  }
  // Tensors whose name starts with `prefix`, with the prefix removed (e.g. "state." -> "conv1.weight").
  std::vector<std::pair<std::string, pt::Tensor>> with_prefix(const std::string& prefix) const {
    std::vector<std::pair<std::string, pt::Tensor>> out;
    for (const Json& t : json_.at("tensors").items)
      if (t.at("name").text.rfind(prefix, 0) == 0)
        out.emplace_back(t.at("name").text.substr(prefix.size()), tensor(t.at("name").text));
    return out;
  }
  int64_t json_int(const std::string& key) const { return static_cast<int64_t>(json_.at(key).number); }
  std::vector<int64_t> json_ints(const std::string& key) const {
    std::vector<int64_t> out;
    for (const Json& d : json_.at(key).items) out.push_back(static_cast<int64_t>(d.number));
    return out;
  }
  std::vector<std::string> json_strings(const std::string& key) const {
    std::vector<std::string> out;
    for (const Json& d : json_.at(key).items) out.push_back(d.text);
    return out;
  }

 private:
  const Json* find(const std::string& name) const {
    for (const Json& t : json_.at("tensors").items)
      if (t.at("name").text == name) return &t;
    return nullptr;
  }
  Json json_;
  std::string bin_;
};

// Largest |a - b| relative to the largest |b| (0 when equal); shapes must match.
inline double max_rel_diff(const pt::Tensor& a, const pt::Tensor& b) {
  if (a.shape() != b.shape()) return 1e30;
  double diff = 0, scale = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    diff = std::max(diff, std::abs(static_cast<double>(a.data<float>()[i]) - b.data<float>()[i]));
    scale = std::max(scale, std::abs(static_cast<double>(b.data<float>()[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

inline bool bit_equal(const pt::Tensor& a, const pt::Tensor& b) {
  // memcmp of no bytes still wants non-null pointers, and an empty tensor has none (UBSan)
  return a.shape() == b.shape() && (a.nbytes() == 0 || std::memcmp(a.bytes(), b.bytes(), a.nbytes()) == 0);
}

}  // namespace golden
