#include "python/signatures.hpp"

#include "nqueens/settings.hpp"
#include "python/arguments.hpp"

namespace nq::python {
namespace {

/// The algorithms' settings as keywords, from the engine's table: the words and switches, and
/// the numbers, with --help's text.
std::vector<keyword_doc> setting_keywords() {
  std::vector<keyword_doc> out;
  for (const auto& w : engine::local_word_options())
    out.push_back({keyword_settings::python_name(w.name), w.help});
  for (const auto& p : engine::local_parameter_table())
    out.push_back({keyword_settings::python_name(p.name), p.help});
  return out;
}

}  // namespace

std::string typed_function(const std::string& name, const std::string& head,
                           const std::string& positional, const std::string& impl,
                           const std::string& summary, const std::vector<keyword_doc>& own) {
  std::vector<keyword_doc> keywords = own;
  for (auto& k : setting_keywords()) keywords.push_back(std::move(k));
  std::string code = "def " + name + "(" + head + ", *";
  for (const auto& k : keywords) code += ", " + k.name + "=None";
  code += "):\n    \"\"\"" + summary + "\n\n    Keyword settings (None: the default):\n\n";
  for (const auto& k : keywords) {
    std::string help = k.help;
    for (auto at = help.find("\\"); at != std::string::npos; at = help.find("\\", at + 2))
      help.replace(at, 1, "\\\\");
    code += "    " + k.name + ": " + help + "\n";
  }
  code += "    \"\"\"\n    given = {}\n";
  for (const auto& k : keywords)
    code += "    if " + k.name + " is not None: given['" + k.name + "'] = " + k.name + "\n";
  code += "    return " + impl + "(" + positional + ", **given)\n";
  return code;
}

}  // namespace nq::python
