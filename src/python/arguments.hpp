#pragma once
// Python arguments as the command line of an nqueens command: keyword settings become
// "--name=value" (underscores as dashes), so the CLI's own parser checks them and its messages
// reach Python unchanged.

#include <pybind11/pybind11.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace nq::python {

class command_line {
 public:
  /// argv[0] is the command's name, as main() hands it on.
  explicit command_line(const char* command) { args_.emplace_back(command); }

  void option(const std::string& name, const std::string& value) {
    args_.push_back("--" + name + "=" + value);
  }
  /// An integer or a string (n may be "1e6"); anything else is a TypeError.
  void option(const std::string& name, pybind11::handle value) { option(name, text(name, value)); }
  void flag(const std::string& name) { args_.push_back("--" + name); }

  /// Each keyword as an option of the command: True as a bare flag, False left out, numbers
  /// and strings as values. `reserved` lists the options the function sets itself, which a
  /// keyword may not (e.g. format, output).
  void settings(const pybind11::kwargs& settings, std::initializer_list<const char*> reserved,
                const char* function);

  /// argv for the command's parser; valid while this object lives and is not changed.
  std::vector<char*> argv() {
    std::vector<char*> out;
    for (auto& a : args_) out.push_back(a.data());
    return out;
  }

  /// The value of a setting as the command line writes it.
  static std::string text(const std::string& name, pybind11::handle value);

 private:
  std::vector<std::string> args_;
};

}  // namespace nq::python
