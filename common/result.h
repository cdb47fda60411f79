// common/result.h — Result<T>: a value or a one-line error message.
//
// Libraries in xferlab return errors as values (never exit, never throw across
// package boundaries). The message is the whole user-facing line, already
// naming the file, field or record it is about; programs print it and map it
// to an exit code (1 runtime error, 2 bad input / usage).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace xferlab {

// Error: the message a program prints on one line, plus whether it was caused
// by the user's input (exit code 2) or by the run itself (exit code 1).
struct Error {
  std::string message;
  bool usage = true;  ///< true: bad input/usage (exit 2); false: runtime failure (exit 1).

  int exit_code() const { return usage ? 2 : 1; }
};

// Result<T>: holds a T or an Error. Cheap to move; check ok() before value().
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT: implicit by design.
  Result(Error error) : v_(std::move(error)) {}  // NOLINT: implicit by design.

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// Status: Result without a value.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT

  static Status Ok() { return Status(); }
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

// make_error: a usage/input error (exit 2).
inline Error make_error(std::string message) {
  return Error{std::move(message), true};
}
// make_runtime_error: a failure of the run itself (exit 1).
inline Error make_runtime_error(std::string message) {
  return Error{std::move(message), false};
}

}  // namespace xferlab

// XF_RETURN_IF_ERROR: propagate a failed Status/Result to the caller.
#define XF_RETURN_IF_ERROR(expr)                     \
  do {                                               \
    auto&& xf_status_ = (expr);                      \
    if (!xf_status_.ok()) return xf_status_.error(); \
  } while (0)

// XF_ASSIGN: `lhs = *expr` for a Result, or propagate its error to the caller.
#define XF_ASSIGN(lhs, expr)               \
  do {                                     \
    auto xf_r_ = (expr);                   \
    if (!xf_r_.ok()) return xf_r_.error(); \
    lhs = std::move(*xf_r_);               \
  } while (0)
