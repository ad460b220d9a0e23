// view_style.h — the look every view shares: ImGui's light style tuned to the page, and the
// palette charts use (so "clipped" or "range" means the same colour in every chart).
#pragma once
#include "imgui.h"

namespace ptv {

namespace palette {
constexpr ImU32 kText = IM_COL32(33, 37, 41, 255);
constexpr ImU32 kMuted = IM_COL32(108, 117, 125, 255);
constexpr ImU32 kAxis = IM_COL32(120, 126, 134, 255);
constexpr ImU32 kGrid = IM_COL32(222, 226, 230, 255);
constexpr ImU32 kBar = IM_COL32(66, 133, 214, 255);        // data inside the chosen range
constexpr ImU32 kBarHover = IM_COL32(25, 90, 170, 255);
constexpr ImU32 kClipped = IM_COL32(220, 80, 60, 255);     // data outside the range: clipped
constexpr ImU32 kRange = IM_COL32(230, 145, 20, 255);      // the chosen quantization range
constexpr ImU32 kRangeFill = IM_COL32(230, 145, 20, 28);
}  // namespace palette

inline void apply_view_style(ImGuiStyle& style) {
  ImGui::StyleColorsLight(&style);
  style.WindowPadding = ImVec2(10, 8);
  style.WindowBorderSize = 0;
  style.WindowRounding = 0;
  style.Colors[ImGuiCol_WindowBg] = ImVec4(1, 1, 1, 1);
  style.Colors[ImGuiCol_Text] = ImGui::ColorConvertU32ToFloat4(palette::kText);
}

}  // namespace ptv
