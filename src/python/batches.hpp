#pragma once
// Python's batch and sweep: the engine's batch and sweep requests from keywords, run on a
// worker thread, their records returned as dicts (a list of them for a sweep); progress= gets
// {done, runs, seconds}, and an interrupted call's KeyboardInterrupt the finished runs' record.

#include <pybind11/pybind11.h>

#include <string>

namespace nq::python {

pybind11::object batch(pybind11::handle n, pybind11::handle algo, pybind11::handle runs,
                       pybind11::handle seed, pybind11::handle device,
                       const pybind11::object& progress, const pybind11::kwargs& settings);

/// A batch per point of `grid`: a string as --sweep writes it ("p=0.05:0.3:0.05,q=1:4"), or a
/// dict of name: value, name: "first:last[:step]" or name: (first, last[, step]).
pybind11::object sweep(pybind11::handle n, pybind11::handle algo, pybind11::handle runs,
                       pybind11::handle grid, pybind11::handle seed, pybind11::handle device,
                       const pybind11::object& progress, const pybind11::kwargs& settings);

}  // namespace nq::python
