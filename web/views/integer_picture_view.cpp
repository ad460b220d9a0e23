// integer_picture_view.cpp — draws IntegerPictureData (see integer_picture_view.h).
#include "integer_picture_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "chart_common.h"
#include "imgui.h"
#include "lower/lower.h"
#include "view_style.h"

namespace ptv {

namespace {

constexpr ImU32 kExact = IM_COL32(214, 232, 250, 255);     // the integer kernel gives the q/dq graph's code
constexpr ImU32 kOneLsb = IM_COL32(253, 226, 190, 255);    // 1 LSB apart
constexpr ImU32 kFarther = IM_COL32(245, 180, 170, 255);   // more

std::string i64(int64_t v) { return std::to_string(v); }

std::string f32_text(double v) {  // a float32 in full (9 significant digits tell any two float32 apart)
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// The strip's cell: the code, or a float output's value; coloured by its distance from the reference.
std::string cell_text(const IntegerPictureData& d, const IntegerElement& e) { return float_output(d) ? fmt(e.output_f32) : i64(e.output); }

ImU32 cell_fill(const IntegerPictureData& d, const IntegerElement& e) {
  if (!e.has_reference) return IM_COL32(248, 249, 250, 255);
  if (float_output(d)) return e.output_f32 == e.reference ? kExact : kOneLsb;  // floats: equal or not
  const double diff = std::fabs(static_cast<double>(e.output) - e.reference);
  return diff == 0 ? kExact : diff == 1 ? kOneLsb : kFarther;
}

std::string coords_text(const std::vector<int64_t>& c) {
  std::string s = "[";
  for (size_t i = 0; i < c.size(); ++i) s += (i ? ", " : "") + i64(c[i]);
  return s + "]";
}

using pt::kernels::RequantKind;

// How each kind rounds the scaled value to a code (kernels.h Requantization).
const char* rounding(RequantKind kind, const IntegerElement& e) {
  if (kind == RequantKind::fixed_point) return "round half away from zero";
  if (kind == RequantKind::shift) return "round half up";
  if (kind == RequantKind::shift_even) return e.shift > 0 ? "round half to even" : "exact";
  return "round half to even";
}

}  // namespace

void IntegerPictureView::set_data(IntegerPictureData d) {
  validate(d);
  data_ = std::move(d);
  hovered_ = -1;
}

void IntegerPictureView::step_to(int element) {
  element = std::clamp(element, 0, static_cast<int>(data_.elements.size()) - 1);
  if (element == data_.element) return;
  data_.element = element;
  ++input_changes_;
}

// The output codes, one cell per element (wrapped), the chosen one outlined; returns the strip's height.
float IntegerPictureView::draw_strip(float top) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float avail = ImGui::GetContentRegionAvail().x, line_h = ImGui::GetTextLineHeight();
  float text_w = ImGui::CalcTextSize("-128").x;
  for (const IntegerElement& e : data_.elements) text_w = std::max(text_w, ImGui::CalcTextSize(cell_text(data_, e).c_str()).x);
  const float cw = text_w + 10, ch = line_h + 6;
  const int per_row = std::max(1, static_cast<int>((avail - 4) / (cw + 2)));
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  hovered_ = -1;
  const int n = static_cast<int>(data_.elements.size());
  for (int i = 0; i < n; ++i) {
    const ImVec2 p0(origin.x + static_cast<float>(i % per_row) * (cw + 2), origin.y + top + static_cast<float>(i / per_row) * (ch + 2));
    const ImVec2 p1(p0.x + cw, p0.y + ch);
    const IntegerElement& e = data_.elements[static_cast<size_t>(i)];
    const bool over = ImGui::IsWindowHovered() && mouse.x >= p0.x && mouse.x < p1.x && mouse.y >= p0.y && mouse.y < p1.y;
    if (over) hovered_ = i;
    dl->AddRectFilled(p0, p1, cell_fill(data_, e), 2);
    dl->AddRect(p0, p1, i == data_.element ? palette::kText : over ? palette::kBarHover : palette::kGrid, 2, 0, i == data_.element ? 2.5f : 1.0f);
    const std::string t = cell_text(data_, e);
    dl->AddText(ImVec2(p1.x - 5 - ImGui::CalcTextSize(t.c_str()).x, p0.y + 3), palette::kText, t.c_str());
  }
  if (hovered_ >= 0) {
    const IntegerElement& e = data_.elements[static_cast<size_t>(hovered_)];
    ImGui::BeginTooltip();
    ImGui::Text("element %d  %s", hovered_, coords_text(e.coords).c_str());
    if (float_output(data_)) {
      ImGui::Text("integer kernel, float output: %s", f32_text(e.output_f32).c_str());
      if (e.has_reference) ImGui::Text("dq -> op: %s", f32_text(e.reference).c_str());
    } else {
      ImGui::Text("integer kernel: %s", i64(e.output).c_str());
      if (e.has_reference) ImGui::Text("dq -> op -> q: %s", i64(static_cast<int64_t>(e.reference)).c_str());
    }
    ImGui::EndTooltip();
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) step_to(hovered_);
  }
  const int rows = (n + per_row - 1) / per_row;
  return static_cast<float>(rows) * (ch + 2);
}

// The chosen element: the K terms as columns (input − zp, weight, product, running sum), then the chain.
void IntegerPictureView::draw_element(float top) {
  const IntegerElement& e = data_.elements[static_cast<size_t>(data_.element)];
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float avail = ImGui::GetContentRegionAvail().x, line_h = ImGui::GetTextLineHeight();
  const char* heads[4] = {"x - zp", "w", "product", "sum"};
  const float head_w = ImGui::CalcTextSize("product").x + 12;
  const float col_w = ImGui::CalcTextSize("-000000").x + 8;
  const int cols = std::max(1, static_cast<int>((avail - head_w) / col_w));
  const size_t k_n = e.inputs.size();
  float y = origin.y + top;
  int64_t sum = 0;
  for (size_t start = 0; start < k_n || start == 0; start += static_cast<size_t>(cols)) {
    for (int r = 0; r < 4; ++r) dl->AddText(ImVec2(origin.x, y + static_cast<float>(r) * line_h), palette::kMuted, heads[r]);
    int64_t s = sum;
    for (size_t k = start; k < std::min(k_n, start + static_cast<size_t>(cols)); ++k) {
      const float x = origin.x + head_w + static_cast<float>(k - start) * col_w;
      s += e.products[k];
      const std::string cells[4] = {i64(e.inputs[k] - data_.input_zero_point), i64(e.weights[k]), i64(e.products[k]), i64(s)};
      for (int r = 0; r < 4; ++r) {
        const float tw = ImGui::CalcTextSize(cells[r].c_str()).x;
        dl->AddText(ImVec2(x + col_w - 6 - tw, y + static_cast<float>(r) * line_h), r == 3 ? palette::kBarHover : palette::kText, cells[r].c_str());
      }
    }
    sum = s;
    y += 4 * line_h + 6;
    if (k_n == 0) break;
  }
  char buf[200];
  std::vector<std::pair<std::string, ImU32>> chain;
  chain.push_back({"int32 accumulator  sum = " + i64(e.accumulator), palette::kText});
  if (float_output(data_)) {  // the float output stage: scale first, the float bias after, [relu]
    chain.push_back({"x s_in*s_w " + f32_text(e.multiplier) + " (float32)  = " + f32_text(e.scaled), palette::kText});
    if (data_.relu) {
      const float biased = static_cast<float>(e.scaled) + static_cast<float>(e.bias_f32);  // the float32 sum the kernel adds
      chain.push_back({"+ float bias " + f32_text(e.bias_f32) + "  = " + f32_text(biased), palette::kText});
      chain.push_back({"relu: max(., 0)  -> " + f32_text(e.output_f32), palette::kBarHover});
    } else {
      chain.push_back({"+ float bias " + f32_text(e.bias_f32) + "  -> " + f32_text(e.output_f32), palette::kBarHover});
    }
    if (e.has_reference) {
      const bool same = e.output_f32 == e.reference;
      chain.push_back({"dq -> op gives " + f32_text(e.reference) + "  (" + (same ? std::string("equal") : "differs by " + f32_text(e.output_f32 - e.reference)) + ")",
                       same ? palette::kMuted : palette::kRange});
    }
  } else {
    chain.push_back({"+ int32 bias " + i64(e.bias) + "  = " + i64(e.accumulator_with_bias), palette::kText});
    const RequantKind kind = pt::requant_from_name(data_.requantization);  // one of them: validate() checked
    if (kind == RequantKind::fixed_point)
      std::snprintf(buf, sizeof buf, "x multiplier %s (Q31 %lld, shift %lld)  = %s", fmt(e.multiplier).c_str(), static_cast<long long>(e.fixed_multiplier),
                    static_cast<long long>(e.shift), fmt(e.scaled).c_str());
    else if (kind == RequantKind::shift)
      std::snprintf(buf, sizeof buf, "x multiplier %s (>> %lld)  = %s", fmt(e.multiplier).c_str(), static_cast<long long>(e.shift), fmt(e.scaled).c_str());
    else if (kind == RequantKind::shift_even)
      std::snprintf(buf, sizeof buf, "x multiplier %s (%s %lld)  = %s", fmt(e.multiplier).c_str(), e.shift > 0 ? ">>" : "<<",
                    static_cast<long long>(std::llabs(e.shift)), fmt(e.scaled).c_str());
    else
      std::snprintf(buf, sizeof buf, "x multiplier %s (float32)  = %s", fmt(e.multiplier).c_str(), fmt(e.scaled).c_str());
    chain.push_back({buf, palette::kText});
    std::snprintf(buf, sizeof buf, "%s, + zero point %lld, clamp [%lld, %lld]  -> %lld", rounding(kind, e), static_cast<long long>(data_.output_zero_point),
                  static_cast<long long>(data_.qmin), static_cast<long long>(data_.qmax), static_cast<long long>(e.output));
    chain.push_back({buf, palette::kBarHover});
    if (e.has_reference) {
      const int64_t diff = e.output - static_cast<int64_t>(e.reference);  // a code: validate() checked it
      chain.push_back({"dq -> op -> q gives " + i64(static_cast<int64_t>(e.reference)) + "  (" + (diff == 0 ? std::string("equal") : i64(diff) + " LSB") + ")",
                       diff == 0 ? palette::kMuted : palette::kRange});
    }
  }
  for (const auto& [text, col] : chain) {
    dl->AddText(ImVec2(origin.x, y), col, text.c_str());
    y += line_h + 2;
  }
  ImGui::Dummy(ImVec2(avail, y - origin.y));
}

void IntegerPictureView::draw() {
  const int n = static_cast<int>(data_.elements.size());
  if (ImGui::Button("<")) step_to(data_.element - 1);
  ImGui::SameLine();
  if (ImGui::Button(">")) step_to(data_.element + 1);
  ImGui::SameLine();
  const IntegerElement& e = data_.elements[static_cast<size_t>(data_.element)];
  ImGui::Text("%s  element %d of %d  %s  requantization %s%s", data_.node.c_str(), data_.element, n, coords_text(e.coords).c_str(),
              data_.requantization.c_str(), float_output(data_) ? (data_.relu ? " (float output, relu)" : " (float output)") : "");
  const float strip = draw_strip(4);
  draw_element(strip + 12);
}

}  // namespace ptv
