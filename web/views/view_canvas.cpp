// view_canvas.cpp — WebGL2 + ImGui context per canvas, input queue, one frame on demand.
// See view_canvas.h for the model (several canvases, no busy loop).
#include "view_canvas.h"

#include <GLES3/gl3.h>

#include <algorithm>

#include "core/error.h"
#include "imgui.h"
#include "imgui_impl_opengl3.h"
#include "view_style.h"

namespace ptv {

namespace {
// Restores whichever ImGui context was current before a ViewCanvas call (none, usually).
struct ImGuiContextScope {
  ImGuiContext* saved = ImGui::GetCurrentContext();
  explicit ImGuiContextScope(ImGuiContext* c) { ImGui::SetCurrentContext(c); }
  ~ImGuiContextScope() { ImGui::SetCurrentContext(saved); }
};
}  // namespace

ViewCanvas::ViewCanvas(const std::string& selector) : selector_(selector) {
  EmscriptenWebGLContextAttributes attrs;
  emscripten_webgl_init_context_attributes(&attrs);
  attrs.majorVersion = 2;
  attrs.minorVersion = 0;
  attrs.alpha = false;
  attrs.depth = false;
  attrs.stencil = false;
  attrs.antialias = false;  // ImGui anti-aliases its own lines and fills
  attrs.premultipliedAlpha = false;
  gl_ = emscripten_webgl_create_context(selector.c_str(), &attrs);
  if (gl_ <= 0)
    throw pt::RuntimeError("view: cannot create a WebGL2 context on canvas '" + selector +
                           "' (no such canvas, or WebGL2 is unavailable in this browser)");
  emscripten_webgl_make_context_current(gl_);

  imgui_ = ImGui::CreateContext();
  ImGuiContextScope scope(imgui_);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini: views keep no state between page loads
  io.LogFilename = nullptr;
  io.BackendPlatformName = "pt2e_views";
  apply_view_style(ImGui::GetStyle());
  ImGui_ImplOpenGL3_Init("#version 300 es");
}

ViewCanvas::~ViewCanvas() {
  emscripten_webgl_make_context_current(gl_);
  ImGuiContextScope scope(imgui_);
  content_.reset();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext(imgui_);
  scope.saved = scope.saved == imgui_ ? nullptr : scope.saved;
  emscripten_webgl_destroy_context(gl_);
}

void ViewCanvas::resize(float css_width, float css_height, float pixel_ratio) {
  css_w_ = std::max(1.0f, css_width);
  css_h_ = std::max(1.0f, css_height);
  ratio_ = std::clamp(pixel_ratio, 0.5f, 4.0f);
  invalidate();
}

void ViewCanvas::pointer_move(float x, float y) {
  queue_.push_back({PointerEvent::Kind::Move, x, y});
  invalidate();
}

void ViewCanvas::pointer_button(float x, float y, int button, bool down) {
  if (button < 0 || button >= 5) return;  // ImGui knows five buttons; others are not ours
  queue_.push_back({PointerEvent::Kind::Button, x, y, button, down});
  invalidate();
}

void ViewCanvas::wheel(float dx, float dy) {
  PointerEvent e{PointerEvent::Kind::Wheel};
  e.wheel_x = dx;
  e.wheel_y = dy;
  queue_.push_back(e);
  invalidate();
}

void ViewCanvas::pointer_leave() {
  queue_.push_back({PointerEvent::Kind::Leave});
  invalidate();
}

void ViewCanvas::set_content(std::unique_ptr<ViewContent> content) {
  content_ = std::move(content);
  invalidate();
}

// Applies queued events in order, but at most one change per mouse button per frame, and nothing
// after a button change, so ImGui sees every press and release at the position it happened.
void ViewCanvas::apply_queued_input() {
  ImGuiIO& io = ImGui::GetIO();
  size_t used = 0;
  for (; used < queue_.size(); ++used) {
    const PointerEvent& e = queue_[used];
    if (e.kind == PointerEvent::Kind::Button) {
      if (io.MouseDown[e.button] == e.down) continue;
      io.MousePos = ImVec2(e.x, e.y);
      io.MouseDown[e.button] = e.down;
      ++used;
      break;
    }
    if (e.kind == PointerEvent::Kind::Move) io.MousePos = ImVec2(e.x, e.y);
    if (e.kind == PointerEvent::Kind::Leave) io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    if (e.kind == PointerEvent::Kind::Wheel) {
      io.MouseWheel += e.wheel_y;
      io.MouseWheelH += e.wheel_x;
    }
  }
  queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(used));
}

// Re-rasterises ImGui's built-in font for the current pixel ratio. Before the first frame the
// backend has no font texture yet (NewFrame creates it); afterwards it is replaced here.
void ViewCanvas::rebuild_fonts() {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig cfg;
  cfg.SizePixels = 13.0f * ratio_;
  io.Fonts->AddFontDefault(&cfg);
  io.FontGlobalScale = 1.0f / ratio_;
  if (frames_drawn_ > 0) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  font_ratio_ = ratio_;
}

bool ViewCanvas::frame(double now_ms) {
  emscripten_webgl_make_context_current(gl_);
  ImGuiContextScope scope(imgui_);
  ImGuiIO& io = ImGui::GetIO();
  if (font_ratio_ != ratio_) rebuild_fonts();
  io.DisplaySize = ImVec2(css_w_, css_h_);
  io.DisplayFramebufferScale = ImVec2(ratio_, ratio_);
  const double dt = last_frame_ms_ < 0 ? 1000.0 / 60.0 : now_ms - last_frame_ms_;
  io.DeltaTime = static_cast<float>(std::clamp(dt, 0.1, 250.0) / 1000.0);
  last_frame_ms_ = now_ms;
  apply_queued_input();

  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("##view", nullptr, flags);
  if (content_) content_->draw();
  ImGui::End();
  ImGui::Render();

  const int fb_w = static_cast<int>(css_w_ * ratio_ + 0.5f), fb_h = static_cast<int>(css_h_ * ratio_ + 0.5f);
  glViewport(0, 0, fb_w, fb_h);
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  ++frames_drawn_;

  if (settle_frames_ > 0) --settle_frames_;
  return !queue_.empty() || settle_frames_ > 0;
}

}  // namespace ptv
