#include "python/arguments.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/local_options.hpp"

namespace py = pybind11;

namespace nq::python {

std::string command_line::python_name(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

namespace {

/// A switch's value: True or False, or the integers 1 and 0.
bool switch_value(const std::string& keyword, py::handle value) {
  if (PyBool_Check(value.ptr())) return value.cast<bool>();
  if (PyIndex_Check(value.ptr()) && !PyFloat_Check(value.ptr())) {
    const py::int_ number(py::reinterpret_borrow<py::object>(value));
    if (number.equal(py::int_(0))) return false;
    if (number.equal(py::int_(1))) return true;
  }
  throw py::type_error("'" + keyword + "' is a switch: True or False (or 1 or 0), not " +
                       std::string(py::repr(value)));
}

}  // namespace

std::string command_line::text(const std::string& name, py::handle value) {
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (PyBool_Check(value.ptr()))
    throw py::type_error("'" + name + "' takes a number or a string, not a bool");
  if (PyIndex_Check(value.ptr()))
    return py::str(py::int_(py::reinterpret_borrow<py::object>(value)));
  if (PyFloat_Check(value.ptr())) {
    // Exactly as Python writes it (0.1, 1e-05, inf): the parser then judges it.
    const double number = value.cast<double>();
    if (std::isfinite(number) && number == std::floor(number) && std::fabs(number) < 1e18) {
      char digits[32];
      std::snprintf(digits, sizeof digits, "%.0f", number);
      return digits;
    }
    return py::repr(value);
  }
  throw py::type_error("'" + name + "' takes a number or a string, not " +
                       std::string(py::str(value.get_type().attr("__name__"))));
}

void command_line::settings(const py::kwargs& settings, std::initializer_list<const char*> reserved,
                            const char* function, std::initializer_list<const char*> switches) {
  for (const auto& [key, value] : settings) {
    const std::string keyword = key.cast<std::string>();
    std::string name = keyword;
    std::replace(name.begin(), name.end(), '_', '-');
    if (name.empty() || name.starts_with('-') ||
        std::find(reserved.begin(), reserved.end(), name) != reserved.end())
      throw py::type_error(std::string(function) + "() got an unexpected keyword argument '" +
                           keyword + "'");
    // False is said, not left out: --accept-equal=false means --reject-equal.
    if (cli::is_local_switch(name) ||
        std::find(switches.begin(), switches.end(), name) != switches.end())
      option(name, switch_value(keyword, value) ? "true" : "false");
    else
      option(name, text(keyword, value));
  }
}

engine::named_settings command_line::named() const {
  engine::named_settings given;
  for (std::size_t i = 1; i < args_.size(); ++i) {
    const std::string& arg = args_[i];
    const auto eq = arg.find('=');
    if (!arg.starts_with("--") || eq == std::string::npos) continue;  // a flag: --quiet
    std::string name = arg.substr(2, eq - 2), value = arg.substr(eq + 1);
    const auto& words = engine::local_word_options();
    const bool is_switch = std::any_of(words.begin(), words.end(), [&](const auto& w) {
      return !w.takes_value && name == w.name;
    });
    if (is_switch) {
      // A switch given off is left out, as on the command line; accept-equal off is
      // reject-equal on.
      if (value == "true") given.set(name, "true");
      if (value == "false" && name == "accept-equal") given.set("reject-equal", "true");
      continue;
    }
    given.set(std::move(name), std::move(value));
  }
  return given;
}

}  // namespace nq::python
