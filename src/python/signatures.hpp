#pragma once
// Python's solve, batch and sweep with a keyword for every setting they take, written at import
// from the engine's table of settings, so that help() and an editor show each one with the
// command's --help text.

#include <string>
#include <vector>

namespace nq::python {

/// A keyword of the generated functions: its Python name and its line of the docstring.
struct keyword_doc {
  std::string name;
  std::string help;
};

/// Python source of `name`: the positional parameters `head` (as Python writes them), then every
/// keyword of `own` and of the settings, keyword-only and None by default (None: the command's
/// default), passed on to `impl` by name when given. Its docstring lists each keyword with the
/// command's help, so help(nqueens.batch) reads as `nqueens batch --help` does.
std::string typed_function(const std::string& name, const std::string& head,
                           const std::string& positional, const std::string& impl,
                           const std::string& summary, const std::vector<keyword_doc>& own);

}  // namespace nq::python
