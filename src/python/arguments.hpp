#pragma once
// Python arguments as settings by name (nqueens/settings.hpp): keyword settings become
// the option they spell (underscores as dashes), so the engine reads them by the rules and
// messages the command line's options meet.

#include <pybind11/pybind11.h>

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

#include "nqueens/settings.hpp"

namespace nq::python {

class keyword_settings {
 public:
  void option(const std::string& name, const std::string& value) { given_.set(name, value); }
  /// A number or a string (n may be "1e6"); anything else is a TypeError naming `keyword`
  /// (by default the option's name with underscores).
  void option(const std::string& name, pybind11::handle value, std::string keyword = "") {
    if (keyword.empty()) keyword = python_name(name);
    option(name, text(keyword, value));
  }

  /// Each keyword as a setting: numbers and strings as values; a switch (the algorithms' and
  /// `switches`) takes True or False, or 1 or 0: given on it is "true", given off it is left
  /// out (accept_equal=False: reject-equal). A bool anywhere else, or anything else for a
  /// switch, is a TypeError, as is a keyword that is neither an algorithm's setting nor in `own`
  /// (the function's other settings: e.g. chains, max-memory).
  void settings(const pybind11::kwargs& settings, std::initializer_list<const char*> own,
                const char* function, std::initializer_list<const char*> switches = {});

  /// The settings given, for the engine to read.
  const engine::named_settings& named() const { return given_; }

  /// The value of a setting as the command line writes it; a TypeError names `keyword`.
  static std::string text(const std::string& keyword, pybind11::handle value);

  /// An option's name as a Python keyword: max-steps is max_steps.
  static std::string python_name(std::string name);

  /// A list setting (devices, workloads) as the command line writes it: a string as it is, or a
  /// sequence of values joined by commas; anything else is a TypeError naming `keyword`.
  static std::string list_text(const std::string& keyword, pybind11::handle value);

  /// A message of the engine's checks with its options named as the package's keywords:
  /// --max-steps as max_steps, -n and --queens as n, --sweep as grid, --algo hc as algo='hc'.
  static std::string keyword_message(const std::string& text);

  /// A switch's value: True or False, or the integers 1 and 0; anything else (2, "yes", None)
  /// is a TypeError naming `keyword`.
  static bool switch_value(const std::string& keyword, pybind11::handle value);

 private:
  engine::named_settings given_;
};

/// A JSON value as the Python object json.loads gives.
pybind11::object to_python(const nlohmann::ordered_json& value);

}  // namespace nq::python
