#include "python/arguments.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "nqueens/settings.hpp"

namespace py = pybind11;

namespace nq::python {

std::string keyword_settings::python_name(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

bool keyword_settings::switch_value(const std::string& keyword, py::handle value) {
  if (PyBool_Check(value.ptr())) return value.cast<bool>();
  if (PyIndex_Check(value.ptr()) && !PyFloat_Check(value.ptr())) {
    const py::int_ number(py::reinterpret_borrow<py::object>(value));
    if (number.equal(py::int_(0))) return false;
    if (number.equal(py::int_(1))) return true;
  }
  throw py::type_error("'" + keyword + "' is a switch: True or False (or 1 or 0), not " +
                       std::string(py::repr(value)));
}

std::string keyword_settings::text(const std::string& name, py::handle value) {
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
    return py::repr(py::float_(number));  // numpy 2 writes np.float64(0.1) for its own
  }
  throw py::type_error("'" + name + "' takes a number or a string, not " +
                       std::string(py::str(py::type::handle_of(value).attr("__name__"))));
}

void keyword_settings::settings(const py::kwargs& settings, std::initializer_list<const char*> own,
                                const char* function, std::initializer_list<const char*> switches) {
  const auto& words = engine::local_word_options();
  const auto& numbers = engine::local_parameter_table();
  for (const auto& [key, value] : settings) {
    const std::string keyword = key.cast<std::string>();
    std::string name = keyword;
    std::replace(name.begin(), name.end(), '_', '-');
    const auto named = [&](const auto& setting) { return name == setting.name; };
    const bool known = std::any_of(words.begin(), words.end(), named) ||
                       std::any_of(numbers.begin(), numbers.end(), named) ||
                       std::find(own.begin(), own.end(), name) != own.end() ||
                       std::find(switches.begin(), switches.end(), name) != switches.end();
    if (!known)
      throw py::type_error(std::string(function) + "() got an unexpected keyword argument '" +
                           keyword + "'");
    const bool is_switch =
        std::any_of(words.begin(), words.end(),
                    [&](const auto& w) { return !w.takes_value && name == w.name; }) ||
        std::find(switches.begin(), switches.end(), name) != switches.end();
    if (!is_switch) {
      option(name, text(keyword, value));
    } else if (switch_value(keyword, value)) {
      given_.set(name, "true");
    } else if (name == "accept-equal") {
      given_.set("reject-equal", "true");  // off, it is the opposite switch on
    }
  }
}

pybind11::object to_python(const nlohmann::ordered_json& value) {
  return pybind11::module_::import("json").attr("loads")(value.dump());
}

}  // namespace nq::python
