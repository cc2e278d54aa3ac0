#pragma once
// Boards for Python: numpy arrays that own the solver's rows (no copy) where numpy imports, and
// the standard library's array.array('I') (a copy) where it does not, so that `import nqueens`
// and a solve work in an interpreter without numpy.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "nqueens/config.hpp"

namespace nq::python {

/// Whether numpy imports here (asked once).
inline bool have_numpy() {
  static const bool present = [] {
    try {
      pybind11::module_::import("numpy");
      return true;
    } catch (const pybind11::error_already_set&) {
      PyErr_Clear();
      return false;
    }
  }();
  return present;
}

/// An ImportError for `what`, which needs numpy: it names this interpreter and the one the
/// module was built for.
inline pybind11::import_error numpy_needed(const std::string& what) {
  const std::string here = pybind11::module_::import("sys").attr("executable").cast<std::string>();
  return pybind11::import_error(what + " needs numpy, which " + here +
                                " lacks (the module was built for " NQ_PYTHON_BUILT_FOR
                                "; install numpy there, or run that interpreter)");
}

/// `values` as a numpy array that owns them (moved, not copied) for as long as Python holds it.
template <class T>
pybind11::array_t<T> owning_array(std::vector<T>&& values) {
  auto* owned = new std::vector<T>(std::move(values));
  pybind11::capsule free_when_done(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return pybind11::array_t<T>(static_cast<pybind11::ssize_t>(owned->size()), owned->data(),
                              free_when_done);
}

/// A board's rows: a uint32 numpy array, or without numpy an array.array('I').
inline pybind11::object rows_object(std::vector<row_t>&& rows) {
  if (have_numpy()) return owning_array(std::move(rows));
  static_assert(sizeof(row_t) == 4, "array('I') holds 4-byte unsigned ints here");
  pybind11::object out = pybind11::module_::import("array").attr("array")("I");
  out.attr("frombytes")(
      pybind11::bytes(reinterpret_cast<const char*>(rows.data()), rows.size() * sizeof(row_t)));
  return out;
}

}  // namespace nq::python
