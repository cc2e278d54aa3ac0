#pragma once
// Python arguments as the command line of an nqueens command: keyword settings become
// "--name=value" (underscores as dashes), so the CLI's own parser checks them and its messages
// reach Python unchanged.

#include <pybind11/pybind11.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "engine/named_settings.hpp"

namespace nq::python {

class command_line {
 public:
  /// argv[0] is the command's name, as main() hands it on.
  explicit command_line(const char* command) { args_.emplace_back(command); }

  void option(const std::string& name, const std::string& value) {
    args_.push_back("--" + name + "=" + value);
  }
  /// A number or a string (n may be "1e6"); anything else is a TypeError naming `keyword`
  /// (by default the option's name with underscores).
  void option(const std::string& name, pybind11::handle value, std::string keyword = "") {
    if (keyword.empty()) keyword = python_name(name);
    option(name, text(keyword, value));
  }
  void flag(const std::string& name) { args_.push_back("--" + name); }

  /// Each keyword as an option of the command: numbers and strings as values; a switch (the
  /// algorithms' and `switches`) takes True or False, or 1 or 0, which the command reads as
  /// --name=true or --name=false. A bool anywhere else, or anything else for a switch, is a
  /// TypeError. `reserved` lists the options the function sets itself, which a keyword may not
  /// (e.g. format, output).
  void settings(const pybind11::kwargs& settings, std::initializer_list<const char*> reserved,
                const char* function, std::initializer_list<const char*> switches = {});

  /// The options given as the engine reads settings by name (engine/named_settings.hpp).
  engine::named_settings named() const;

  /// argv for the command's parser; valid while this object lives and is not changed.
  std::vector<char*> argv() {
    std::vector<char*> out;
    for (auto& a : args_) out.push_back(a.data());
    return out;
  }

  /// The value of a setting as the command line writes it; a TypeError names `keyword`.
  static std::string text(const std::string& keyword, pybind11::handle value);

  /// An option's name as a Python keyword: max-steps is max_steps.
  static std::string python_name(std::string name);

 private:
  std::vector<std::string> args_;
};

}  // namespace nq::python
