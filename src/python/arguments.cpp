#include "python/arguments.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace py = pybind11;

namespace nq::python {

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
                            const char* function) {
  for (const auto& [key, value] : settings) {
    std::string name = key.cast<std::string>();
    std::replace(name.begin(), name.end(), '_', '-');
    if (name.empty() || name.starts_with('-') ||
        std::find(reserved.begin(), reserved.end(), name) != reserved.end())
      throw py::type_error(std::string(function) + "() got an unexpected keyword argument '" +
                           key.cast<std::string>() + "'");
    if (PyBool_Check(value.ptr())) {
      if (value.cast<bool>()) flag(name);
      continue;
    }
    option(name, text(name, value));
  }
}

}  // namespace nq::python
