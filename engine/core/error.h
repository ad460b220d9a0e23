// error.h — the engine's typed errors.
//
// Every check on user input throws one of these. Each mirrors the Python exception PyTorch would
// raise (ValueError, TypeError, RuntimeError, NotImplementedError, IndexError), so the JS side can
// rethrow an Error subclass of the same name with the same message. Nothing in the engine aborts:
// a failed check throws before any state is changed.
#pragma once
#include <stdexcept>
#include <string>

namespace pt {

enum class ErrorKind { ValueError, TypeError, RuntimeError, NotImplementedError, IndexError };

inline const char* error_kind_name(ErrorKind k) {
  switch (k) {
    case ErrorKind::ValueError: return "ValueError";
    case ErrorKind::TypeError: return "TypeError";
    case ErrorKind::RuntimeError: return "RuntimeError";
    case ErrorKind::NotImplementedError: return "NotImplementedError";
    case ErrorKind::IndexError: return "IndexError";
  }
  return "RuntimeError";
}

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& msg) : std::runtime_error(msg), kind_(kind) {}
  ErrorKind kind() const { return kind_; }
  const char* kind_name() const { return error_kind_name(kind_); }

 private:
  ErrorKind kind_;
};

struct ValueError : Error { explicit ValueError(const std::string& m) : Error(ErrorKind::ValueError, m) {} };
struct TypeError : Error { explicit TypeError(const std::string& m) : Error(ErrorKind::TypeError, m) {} };
struct RuntimeError : Error { explicit RuntimeError(const std::string& m) : Error(ErrorKind::RuntimeError, m) {} };
struct NotImplementedError : Error {
  explicit NotImplementedError(const std::string& m) : Error(ErrorKind::NotImplementedError, m) {}
};
struct IndexError : Error { explicit IndexError(const std::string& m) : Error(ErrorKind::IndexError, m) {} };

// Throws an error of e's kind with another message (a prefix naming where it happened, say).
[[noreturn]] inline void rethrow_with_message(const Error& e, const std::string& msg) {
  switch (e.kind()) {
    case ErrorKind::ValueError: throw ValueError(msg);
    case ErrorKind::TypeError: throw TypeError(msg);
    case ErrorKind::NotImplementedError: throw NotImplementedError(msg);
    case ErrorKind::IndexError: throw IndexError(msg);
    case ErrorKind::RuntimeError: break;
  }
  throw RuntimeError(msg);
}

// Python's error for a keyword a callable has no parameter for; `callable` as Python names it
// ("MinMaxObserver.__init__", "get_symmetric_quantization_config").
inline TypeError unexpected_keyword_argument(const std::string& callable, const std::string& key) {
  return TypeError(callable + "() got an unexpected keyword argument '" + key + "'");
}

}  // namespace pt
