#include "python/signatures.hpp"

#include "nqueens/settings.hpp"
#include "python/arguments.hpp"

namespace py = pybind11;

namespace nq::python {

py::list setting_table() {
  py::list out;
  for (const auto& w : engine::local_word_options())
    out.append(py::make_tuple(keyword_settings::python_name(w.name),
                              keyword_settings::keyword_message(w.help),
                              w.takes_value ? "word" : "switch"));
  for (const auto& p : engine::local_parameter_table())
    out.append(py::make_tuple(keyword_settings::python_name(p.name),
                              keyword_settings::keyword_message(p.help), "number"));
  return out;
}

}  // namespace nq::python
