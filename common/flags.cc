// common/flags.cc — declared command-line flags (see flags.h).
#include "common/flags.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "common/number.h"
#include "common/units.h"

namespace xferlab {
namespace {

const char* type_name(FlagType t) {
  switch (t) {
    case FlagType::kInt: return "INT";
    case FlagType::kNumber: return "NUM";
    case FlagType::kRepeated: return "VALUE";
    case FlagType::kSize: return "SIZE";
    case FlagType::kSizeList: return "SIZES";
    case FlagType::kTime: return "TIME";
    case FlagType::kString: return "STR";
    case FlagType::kBool: return "BOOL";
  }
  return "?";
}

Result<bool> parse_bool(const std::string& text) {
  if (text == "true" || text == "1" || text == "on" || text == "yes") return true;
  if (text == "false" || text == "0" || text == "off" || text == "no") return false;
  return make_error("'" + text + "' is not a boolean (true/false)");
}

std::string range_text(double min, double max) {
  std::ostringstream os;
  os.precision(15);  // integer bounds such as 1 << 20 print whole, not as 1.04858e+06
  os << "[" << min << ", " << max << "]";
  return os.str();
}

[[noreturn]] void bad_declaration(const std::string& name, const std::string& message) {
  std::fprintf(stderr, "%s:%d: bad default for flag --%s: %s\n", __FILE__, __LINE__, name.c_str(),
               message.c_str());
  std::abort();
}

}  // namespace

FlagSet::FlagSet(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {}

FlagSet& FlagSet::add(Flag flag) {
  flag.default_text = flag.text;
  const Status st = assign(flag, flag.text);
  if (!st.ok()) bad_declaration(flag.name, st.error().message);
  flag.set = false;
  flags_.push_back(std::move(flag));
  return *this;
}

FlagSet& FlagSet::add_int(const std::string& name, int64_t default_value, int64_t min, int64_t max,
                          const std::string& help) {
  return add(Flag{name,
                  FlagType::kInt,
                  std::to_string(default_value),
                  help,
                  "",
                  static_cast<double>(min),
                  static_cast<double>(max),
                  {}});
}

FlagSet& FlagSet::add_size(const std::string& name, const std::string& default_value,
                           double min_bytes, double max_bytes, const std::string& help) {
  return add(Flag{name, FlagType::kSize, default_value, help, "", min_bytes, max_bytes, {}});
}

FlagSet& FlagSet::add_size_list(const std::string& name, const std::string& default_value,
                                double min_bytes, double max_bytes, const std::string& help) {
  return add(Flag{name, FlagType::kSizeList, default_value, help, "", min_bytes, max_bytes, {}});
}

FlagSet& FlagSet::add_time(const std::string& name, const std::string& default_value,
                           const std::string& help) {
  return add(Flag{name, FlagType::kTime, default_value, help, "", 0, 0, {}});
}

FlagSet& FlagSet::add_string(const std::string& name, const std::string& default_value,
                             const std::vector<std::string>& choices, const std::string& help) {
  return add(Flag{name, FlagType::kString, default_value, help, "", 0, 0, choices});
}

FlagSet& FlagSet::add_bool(const std::string& name, bool default_value, const std::string& help) {
  return add(Flag{name, FlagType::kBool, default_value ? "true" : "false", help, "", 0, 0, {}});
}

FlagSet& FlagSet::add_number(const std::string& name, double default_value, double min, double max,
                             const std::string& help) {
  std::ostringstream os;
  os.precision(15);
  os << default_value;
  return add(Flag{name, FlagType::kNumber, os.str(), help, "", min, max, {}});
}

FlagSet& FlagSet::add_repeated(const std::string& name, const std::string& value_name,
                               const std::string& help) {
  Flag f;
  f.name = name;
  f.type = FlagType::kRepeated;
  f.help = help;
  f.choices = {value_name};  // the value's name, for help
  flags_.push_back(std::move(f));
  return *this;
}

FlagSet& FlagSet::set_positionals(const std::string& name, size_t min, size_t max,
                                  const std::string& help) {
  positional_name_ = name;
  positional_help_ = help;
  positional_min_ = min;
  positional_max_ = max;
  return *this;
}

Status FlagSet::assign(Flag& flag, const std::string& text) const {
  const std::string where = "--" + flag.name + ": ";
  switch (flag.type) {
    case FlagType::kInt: {
      auto v = parse_int(text);
      if (!v.ok()) return make_error(where + v.error().message);
      if (*v < flag.min || *v > flag.max)
        return make_error(where + text + " is outside " + range_text(flag.min, flag.max));
      break;
    }
    case FlagType::kNumber: {
      auto v = parse_double(text);
      if (!v.ok()) return make_error(where + v.error().message);
      if (*v < flag.min || *v > flag.max)
        return make_error(where + text + " is outside " + range_text(flag.min, flag.max));
      break;
    }
    case FlagType::kRepeated: flag.all.push_back(text); break;
    case FlagType::kSize: {
      auto v = parse_quantity(text, Unit::kSizeBytes);
      if (!v.ok()) {
        // Bare numbers are bytes.
        auto n = parse_quantity(text, Unit::kNone);
        if (!n.ok()) return make_error(where + v.error().message);
        v = n;
      }
      if (*v < flag.min || *v > flag.max)
        return make_error(where + text + " is outside " + range_text(flag.min, flag.max) +
                          " bytes");
      break;
    }
    case FlagType::kSizeList: {
      auto v = parse_size_list(text);
      if (!v.ok()) return make_error(where + v.error().message);
      if (v->empty()) return make_error(where + "empty list");
      for (double s : *v)
        if (s < flag.min || s > flag.max)
          return make_error(where + "size " + std::to_string(static_cast<int64_t>(s)) +
                            " is outside " + range_text(flag.min, flag.max) + " bytes");
      break;
    }
    case FlagType::kTime: {
      auto v = parse_quantity(text, Unit::kTimeNs);
      if (!v.ok()) return make_error(where + v.error().message);
      if (*v <= 0) return make_error(where + "must be positive");
      break;
    }
    case FlagType::kString:
      if (!flag.choices.empty()) {
        bool found = false;
        for (const auto& c : flag.choices) found = found || c == text;
        if (!found) {
          std::string list;
          for (const auto& c : flag.choices) list += (list.empty() ? "" : "|") + c;
          return make_error(where + "'" + text + "' is not one of " + list +
                            did_you_mean(text, flag.choices));
        }
      }
      break;
    case FlagType::kBool: {
      auto v = parse_bool(text);
      if (!v.ok()) return make_error(where + v.error().message);
      break;
    }
  }
  flag.text = text;
  flag.set = true;
  return Status::Ok();
}

Result<bool> FlagSet::parse(int argc, const char* const* argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  return parse(args);
}

Result<bool> FlagSet::parse(const std::vector<std::string>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") return false;
    const bool is_short = arg.size() == 2 && arg[0] == '-' && arg[1] != '-';
    if (!is_short && (arg.rfind("--", 0) != 0 || arg.size() == 2)) {
      if (positional_max_ > positionals_.size() && !(arg.size() > 1 && arg[0] == '-')) {
        positionals_.push_back(arg);
        continue;
      }
      return make_error("unexpected argument '" + arg + "' (flags are --name=value; see --help)");
    }
    std::string name = arg.substr(is_short ? 1 : 2);
    std::string value;
    bool has_value = false;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    Flag* flag = nullptr;
    for (Flag& f : flags_)
      if (f.name == name) flag = &f;
    if (flag == nullptr) {
      std::vector<std::string> names;
      for (const Flag& f : flags_) names.push_back(f.name);
      return make_error("unknown flag " + arg.substr(0, arg.find('=')) + did_you_mean(name, names));
    }
    if (!has_value) {
      if (flag->type == FlagType::kBool) {
        value = "true";
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        return make_error("--" + name + ": missing value");
      }
    }
    XF_RETURN_IF_ERROR(assign(*flag, value));
  }
  if (positionals_.size() < positional_min_) {
    return make_error(std::string("expected ") +
                      (positional_min_ == positional_max_ ? "" : "at least ") +
                      std::to_string(positional_min_) + " " + positional_name_ + " (see --help)");
  }
  return true;
}

std::string FlagSet::help() const {
  std::ostringstream os;
  os << "usage: " << program_ << " [flags]";
  if (positional_max_ > 0) {
    os << " " << (positional_min_ == 0 ? "[" : "") << positional_name_
       << (positional_max_ > 1 ? "..." : "") << (positional_min_ == 0 ? "]" : "");
  }
  os << "\n" << summary_ << "\n";
  if (positional_max_ > 0) os << "\n  " << positional_name_ << "  " << positional_help_ << "\n";
  os << "\nflags:\n";
  for (const Flag& f : flags_) {
    const std::string dash = f.name.size() == 1 ? "-" : "--";
    if (f.type == FlagType::kRepeated) {
      os << "  " << dash << f.name << " " << f.choices.front() << "  " << f.help
         << " (repeatable)\n";
      continue;
    }
    os << "  " << dash << f.name << "=" << type_name(f.type) << "  " << f.help << " (default "
       << (f.default_text.empty() ? "\"\"" : f.default_text);
    if (f.type == FlagType::kInt || f.type == FlagType::kSize || f.type == FlagType::kSizeList ||
        f.type == FlagType::kNumber)
      os << ", range " << range_text(f.min, f.max);
    if (!f.choices.empty()) {
      os << ", one of";
      for (const auto& c : f.choices) os << " " << c;
    }
    os << ")\n";
  }
  os << "  --help  print this help\n";
  return os.str();
}

const FlagSet::Flag& FlagSet::find(const std::string& name, FlagType type) const {
  for (const Flag& f : flags_)
    if (f.name == name && f.type == type) return f;
  std::fprintf(stderr, "%s:%d: flag --%s of type %s was not declared\n", __FILE__, __LINE__,
               name.c_str(), type_name(type));
  std::abort();
}

int64_t FlagSet::get_int(const std::string& name) const {
  return parse_int(find(name, FlagType::kInt).text).value();
}

double FlagSet::get_size(const std::string& name) const {
  const std::string& t = find(name, FlagType::kSize).text;
  auto v = parse_quantity(t, Unit::kSizeBytes);
  return v.ok() ? *v : parse_quantity(t, Unit::kNone).value();
}

std::vector<double> FlagSet::get_size_list(const std::string& name) const {
  return parse_size_list(find(name, FlagType::kSizeList).text).value();
}

double FlagSet::get_time_ns(const std::string& name) const {
  return parse_quantity(find(name, FlagType::kTime).text, Unit::kTimeNs).value();
}

const std::string& FlagSet::get_string(const std::string& name) const {
  return find(name, FlagType::kString).text;
}

bool FlagSet::get_bool(const std::string& name) const {
  return parse_bool(find(name, FlagType::kBool).text).value();
}

double FlagSet::get_number(const std::string& name) const {
  return parse_double(find(name, FlagType::kNumber).text).value();
}

const std::vector<std::string>& FlagSet::get_all(const std::string& name) const {
  return find(name, FlagType::kRepeated).all;
}

bool FlagSet::was_set(const std::string& name) const {
  for (const Flag& f : flags_)
    if (f.name == name) return f.set;
  return false;
}

std::vector<std::pair<std::string, std::string>> FlagSet::values() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Flag& f : flags_) out.emplace_back(f.name, f.text);
  return out;
}

void parse_flags_or_exit(FlagSet& flags, int argc, char** argv) {
  auto r = flags.parse(argc, argv);
  if (!r.ok()) {
    std::cerr << flags.program() << ": " << r.error().message << "\n";
    std::exit(2);
  }
  if (!*r) {
    std::cout << flags.help();
    std::exit(0);
  }
}

}  // namespace xferlab
