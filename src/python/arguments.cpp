#include "python/arguments.hpp"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <cstdio>
#include <set>

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
  const std::string type = py::str(py::type::handle_of(value).attr("__name__"));
  if (PyBool_Check(value.ptr()) || type == "bool_")  // numpy's bool too
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
  // Other real numbers (numpy's float32, fractions.Fraction) by their float value.
  if (!PyComplex_Check(value.ptr()) && py::hasattr(value, "__float__"))
    return text(name, py::float_(py::reinterpret_borrow<py::object>(value)));
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

/// A message of the engine's checks with its options named as the package's keywords:
/// --max-steps as max_steps, -n and --queens as n, --sweep as grid.
std::string keyword_settings::keyword_message(const std::string& text) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const bool starts_word = at == 0 || text[at - 1] == ' ' || text[at - 1] == '(';
    const auto is_name = [&](std::size_t i) {
      return i < text.size() && (std::islower(static_cast<unsigned char>(text[i])) != 0 ||
                                 std::isdigit(static_cast<unsigned char>(text[i])) != 0 ||
                                 text[i] == '-');
    };
    std::size_t name = at;
    if (starts_word && text.compare(at, 2, "--") == 0 && is_name(at + 2) && text[at + 2] != '-') {
      name = at + 2;
    } else if (starts_word && text.compare(at, 3, "-n ") == 0) {
      out += "n";
      at += 2;
      continue;
    }
    if (name == at) {
      out += text[at++];
      continue;
    }
    std::size_t end = name;
    while (is_name(end)) ++end;
    std::string keyword = keyword_settings::python_name(text.substr(name, end - name));
    if (keyword == "queens") keyword = "n";
    if (keyword == "sweep") keyword = "grid";
    out += keyword;
    at = end;
    // A value after a keyword that takes a name, as Python writes it: algo='parallel'.
    static const std::set<std::string> named = {"algo", "device", "variant", "encoding"};
    if (named.contains(keyword) && at + 1 < text.size() && text[at] == ' ' && is_name(at + 1)) {
      std::size_t value_end = at + 1;
      while (is_name(value_end)) ++value_end;
      const std::string value = text.substr(at + 1, value_end - at - 1);
      static const std::set<std::string> words = {"is", "does", "must", "applies", "takes",
                                                  "needs", "and", "or", "only", "to", "with",
                                                  "of", "for", "given", "not", "runs"};
      if (!words.contains(value)) {
        out += "='" + value + "'";
        at = value_end;
      }
    }
  }
  return out;
}

std::string keyword_settings::list_text(const std::string& keyword, py::handle value) {
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (!py::isinstance<py::sequence>(value))
    throw py::type_error("'" + keyword + "' takes a list (or a comma-separated string), not " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  std::string list;
  for (const auto& item : value.cast<py::sequence>()) {
    if (!list.empty()) list += ',';
    list += text(keyword, item);
  }
  return list;
}

pybind11::object to_python(const nlohmann::ordered_json& value) {
  return pybind11::module_::import("json").attr("loads")(value.dump());
}

}  // namespace nq::python
