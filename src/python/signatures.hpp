#pragma once
// The algorithms' settings as Python keywords, from the engine's table of settings: the package
// (src/python/nqueens) gives solve, batch and sweep a keyword for each, with the command's
// --help text, so that help() and inspect.signature show them.

#include <pybind11/pybind11.h>

namespace nq::python {

/// Each setting as (keyword, help, kind), kind "switch" (True or False), "word" (one of the
/// names its help lists) or "number".
pybind11::list setting_table();

}  // namespace nq::python
