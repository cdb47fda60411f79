// common/flags.h — FlagSet: the one command-line flag parser, used by every
// `xferlab` subcommand and every native program.
//
// Each flag is declared once with name, type, default, allowed range and help
// text; --help is generated from the declarations (and docs include that
// generated text: tools/gen_cli_docs.sh); values with units are parsed once
// here (common/units.h), numbers with common/number.h. Accepted forms:
// --name=value, --name value, bare --name for booleans, and -x for one-letter
// names. Repeatable flags collect every value; positional arguments are
// declared too. Unknown flags get a did-you-mean suggestion. Errors are one
// line (exit code 2 in programs).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"

namespace xferlab {

enum class FlagType { kInt, kNumber, kSize, kSizeList, kTime, kString, kBool, kRepeated };

class FlagSet {
 public:
  FlagSet(std::string program, std::string summary);

  // Declarations (default text is validated like user input; a bad default
  // is a programming error and aborts with file:line).
  FlagSet& add_int(const std::string& name, int64_t default_value, int64_t min, int64_t max,
                   const std::string& help);
  // Sizes in bytes ("4KiB", "1GB", bare numbers = bytes), within [min, max].
  FlagSet& add_size(const std::string& name, const std::string& default_value, double min_bytes,
                    double max_bytes, const std::string& help);
  FlagSet& add_size_list(const std::string& name, const std::string& default_value,
                         double min_bytes, double max_bytes, const std::string& help);
  // Durations ("500ms", "2s"; bare numbers rejected), stored in ns.
  FlagSet& add_time(const std::string& name, const std::string& default_value,
                    const std::string& help);
  // Strings; a non-empty `choices` restricts the values.
  FlagSet& add_string(const std::string& name, const std::string& default_value,
                      const std::vector<std::string>& choices, const std::string& help);
  FlagSet& add_bool(const std::string& name, bool default_value, const std::string& help);
  // Plain numbers (common/number.h) within [min, max].
  FlagSet& add_number(const std::string& name, double default_value, double min, double max,
                      const std::string& help);
  // A flag that may be given many times (`--set k=v --set k2=v2`); get_all.
  FlagSet& add_repeated(const std::string& name, const std::string& value_name,
                        const std::string& help);
  // Positional arguments: `name` in the usage line, min..max of them.
  FlagSet& set_positionals(const std::string& name, size_t min, size_t max,
                           const std::string& help);

  // parse: argv[1..argc). Returns true to run, false when --help was asked
  // (print help()). Error messages name the flag and the problem.
  Result<bool> parse(int argc, const char* const* argv);
  Result<bool> parse(const std::vector<std::string>& args);

  std::string help() const;

  // Typed values (the name must have been declared with that type).
  int64_t get_int(const std::string& name) const;
  double get_size(const std::string& name) const;
  std::vector<double> get_size_list(const std::string& name) const;
  double get_time_ns(const std::string& name) const;
  const std::string& get_string(const std::string& name) const;
  bool get_bool(const std::string& name) const;
  double get_number(const std::string& name) const;
  const std::vector<std::string>& get_all(const std::string& name) const;
  const std::vector<std::string>& positionals() const { return positionals_; }
  // was_set: given on the command line (not the default).
  bool was_set(const std::string& name) const;

  // values: every flag's effective value as text, in declaration order (for
  // trace metadata parameters and provenance).
  std::vector<std::pair<std::string, std::string>> values() const;

  const std::string& program() const { return program_; }

 private:
  struct Flag {
    std::string name;
    FlagType type = FlagType::kString;
    std::string text;  ///< effective value as given.
    std::string help;
    std::string default_text;
    double min = 0, max = 0;
    std::vector<std::string> choices;
    bool set = false;
    std::vector<std::string> all = {};  ///< kRepeated: every value given.
  };
  FlagSet& add(Flag flag);
  Status assign(Flag& flag, const std::string& text) const;
  const Flag& find(const std::string& name, FlagType type) const;

  std::string program_;
  std::string summary_;
  std::vector<Flag> flags_;
  std::string positional_name_;
  std::string positional_help_;
  size_t positional_min_ = 0, positional_max_ = 0;
  std::vector<std::string> positionals_;
};

// parse_flags_or_exit: for main(): prints help to stdout and exits 0 on
// --help; prints "program: error" (one line) to stderr and exits 2 on bad input.
void parse_flags_or_exit(FlagSet& flags, int argc, char** argv);

}  // namespace xferlab
