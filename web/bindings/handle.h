// handle.h — the one shape of an Embind handle over an engine object. A handle is a copyable value
// sharing its object (shared_ptr): JS copies of it are the same object; clone() is what copies. An object
// that points into others (a Tape into its GraphModule, an optimizer into its modules' parameters) is
// shared with `sharing(object, owners...)`, whose control block keeps the owners alive as long as the
// object, so nothing a page holds can dangle.
#pragma once
#include <memory>
#include <utility>

#include "core/error.h"

namespace ptjs {

template <class T>
struct Handle {
  std::shared_ptr<T> ptr;
  T& get() const {
    if (!ptr) throw pt::RuntimeError("this handle is empty: its object was never constructed");
    return *ptr;
  }
};

template <class T>
Handle<T> own(T&& object) {
  return {std::make_shared<T>(std::move(object))};
}

// `object` shared so that the owners live at least as long as it does (the object goes first).
template <class T, class... Owners>
std::shared_ptr<T> sharing(std::shared_ptr<T> object, Owners... owners) {
  T* raw = object.get();
  return std::shared_ptr<T>(raw, [object = std::move(object), owners...](T*) mutable { object.reset(); });
}

}  // namespace ptjs
