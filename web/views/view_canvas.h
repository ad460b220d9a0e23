// view_canvas.h — one <canvas> on the page = one WebGL2 context + one Dear ImGui context.
//
// The wasm module drives any number of canvases. Each ViewCanvas owns:
//   - a WebGL2 context created with emscripten's html5 API on a CSS selector ("#view-3");
//   - an ImGui context with its own OpenGL3 backend data (imgui 1.86 keeps the backend state in
//     io.BackendRendererUserData, i.e. per ImGui context; GL objects are created in whichever
//     WebGL context is current, so frame() always makes both contexts current first);
//   - a queue of pointer events fed from JS (web/app/views.js), applied a few per frame so a fast
//     click (down and up between two frames) is still seen by ImGui;
//   - one ViewContent (view_content.h): what is drawn (a chart, a graph view);
//   - a font atlas rasterised at the device pixel ratio (io.FontGlobalScale = 1 / ratio), so text
//     stays sharp on high-density screens. ImGui's built-in font covers ASCII only: text in other
//     scripts (lesson titles in 繁體中文) belongs in HTML around the canvas, not in the view.
// Nothing runs in a loop: JS calls frame() when an event or new data arrives, and keeps calling it
// (once per animation frame) while frame() returns true, i.e. while ImGui still has input to
// consume or a few settling frames to draw (hover states and tooltips appear one frame late).
#pragma once
#include <emscripten/html5.h>

#include <memory>
#include <string>
#include <vector>

#include "view_content.h"

struct ImGuiContext;

namespace ptv {

struct PointerEvent {
  enum class Kind { Move, Button, Wheel, Leave };
  Kind kind;
  float x = 0, y = 0;  // CSS pixels from the canvas' top-left corner (Move, Button)
  int button = 0;      // 0 left, 1 right, 2 middle (Button)
  bool down = false;   // (Button)
  float wheel_x = 0, wheel_y = 0;  // ImGui units: +1 = one notch up / left (Wheel)
};

class ViewCanvas {
 public:
  // Throws pt::RuntimeError when the selector names no canvas or WebGL2 is unavailable.
  explicit ViewCanvas(const std::string& selector);
  ~ViewCanvas();
  ViewCanvas(const ViewCanvas&) = delete;
  ViewCanvas& operator=(const ViewCanvas&) = delete;

  // Size of the canvas in CSS pixels and the device pixel ratio (backing store = css * ratio).
  void resize(float css_width, float css_height, float pixel_ratio);

  void pointer_move(float x, float y);
  void pointer_button(float x, float y, int button, bool down);
  void wheel(float dx, float dy);
  void pointer_leave();

  void set_content(std::unique_ptr<ViewContent> content);
  ViewContent* content() { return content_.get(); }
  // Call after changing the content's data: the next frames redraw it.
  void invalidate() { settle_frames_ = kSettleFrames; }

  // Draws one frame at time now_ms (performance.now()); true when another frame is wanted.
  bool frame(double now_ms);

  const std::string& selector() const { return selector_; }
  int frames_drawn() const { return frames_drawn_; }

 private:
  static constexpr int kSettleFrames = 3;
  void apply_queued_input();
  void rebuild_fonts();

  std::string selector_;
  EMSCRIPTEN_WEBGL_CONTEXT_HANDLE gl_ = 0;
  ImGuiContext* imgui_ = nullptr;
  std::unique_ptr<ViewContent> content_;
  std::vector<PointerEvent> queue_;
  float css_w_ = 300, css_h_ = 150, ratio_ = 1;
  float font_ratio_ = 1;  // the pixel ratio the font atlas was rasterised for
  double last_frame_ms_ = -1;
  int settle_frames_ = kSettleFrames;
  int frames_drawn_ = 0;
};

}  // namespace ptv
