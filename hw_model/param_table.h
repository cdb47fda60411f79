// hw_model/param_table.h — Param<C>: one declaration per configuration field
// (key, unit, description, member) used for TOML parsing, `--set key=value`,
// dumps and generated docs, so no field is described or defaulted twice.
//
// Defaults live only in the config structs' member initializers; the table
// points at the members.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/result.h"
#include "common/units.h"

namespace xferlab::hw_model {

// EnumField<C>: an enum member seen as text (get/set through its name table).
template <typename C>
struct EnumField {
  std::string (*get)(const C& config);
  Status (*set)(C& config, std::string_view text);  ///< error lists the accepted names.
  const char* choices;                              ///< "a|b|c", for docs and errors.
};

// FieldRef<C>: which member a parameter reads and writes.
template <typename C>
using FieldRef = std::variant<double C::*, int64_t C::*, bool C::*, std::string C::*, EnumField<C>>;

// Plausible: the values a real machine has, in base units (ns, B, B/s, Hz,
// 1/s, plain numbers). A preset value outside loads with a one-line warning
// naming the file, line and key (`--strict` makes it an error). {0, 0}: the
// unit's range (plausible_range below).
struct Plausible {
  double min = 0;
  double max = 0;
};

// Param<C>: one configuration parameter of config struct C.
//   key:  TOML key inside the struct's section ("update_latency").
//   unit: Unit::kNone for plain numbers (counts, ratios); otherwise the value
//         must be written with its unit ("20ns", "25GBps").
//   plausible: where it differs from the unit's range.
template <typename C>
struct Param {
  const char* key;
  Unit unit;
  const char* description;
  FieldRef<C> field;
  Plausible plausible = {};
};

// kAutoCount: a count left to a design rule ("auto" in presets and --set),
// resolved by hw_model/hardware_sizing.h before a model is built.
inline constexpr int64_t kAutoCount = -1;

// format_quantity: `value` (in base units) with a readable unit suffix that
// parse_quantity reads back to the same double ("1.5us", "25GBps", "16B").
std::string format_quantity(double value, Unit unit);

// format_plain: a number without unit, shortest round-trip form.
std::string format_plain(double value);

// unit_plausible_range: the range of any quantity of `unit` on a real
// machine: times 0..1 s, sizes 0..10 TB, bandwidths 0..100 TB/s, clocks
// 1 MHz..10 GHz, rates 0..10^12/s; plain numbers and counts 0..10^9.
Plausible unit_plausible_range(Unit unit);

// plausible_range: the parameter's declared range, else its unit's.
template <typename C>
Plausible plausible_range(const Param<C>& param) {
  if (param.plausible.min != 0 || param.plausible.max != 0) return param.plausible;
  return unit_plausible_range(param.unit);
}

// implausible_value: "VALUE is outside the plausible range MIN..MAX" when the
// parameter's numeric value is outside plausible_range ("" inside, for text,
// booleans, enums and counts left "auto").
template <typename C>
std::string implausible_value(const Param<C>& param, const C& config) {
  double v = 0;
  if (const auto* m = std::get_if<double C::*>(&param.field)) {
    v = config.*(*m);
  } else if (const auto* c = std::get_if<int64_t C::*>(&param.field)) {
    if (config.*(*c) == kAutoCount) return "";
    v = static_cast<double>(config.*(*c));
  } else {
    return "";
  }
  const Plausible r = plausible_range(param);
  if (v >= r.min && v <= r.max) return "";
  auto text = [&](double x) {
    return param.unit == Unit::kNone ? format_plain(x) : format_quantity(x, param.unit);
  };
  return text(v) + " is outside the plausible range " + text(r.min) + ".." + text(r.max);
}

// parse_plain_number / parse_count / parse_bool: text forms of unitless values.
Result<double> parse_plain_number(std::string_view text);
Result<int64_t> parse_count(std::string_view text);
Result<bool> parse_bool(std::string_view text);

// param_unit_text: "time", "bandwidth", "number", "count", "text", "bool" or
// the enum's choices, for docs.
template <typename C>
std::string param_unit_text(const Param<C>& param) {
  struct V {
    const Param<C>& p;
    std::string operator()(double C::*) const { return unit_name(p.unit); }
    std::string operator()(int64_t C::*) const { return "count"; }
    std::string operator()(bool C::*) const { return "bool"; }
    std::string operator()(std::string C::*) const { return "text"; }
    std::string operator()(const EnumField<C>& e) const { return e.choices; }
  };
  return std::visit(V{param}, param.field);
}

// param_value_text: a parameter's current value as text with its unit
// ("700ns", "25GBps", "16B", "4", "true", "spill").
template <typename C>
std::string param_value_text(const Param<C>& param, const C& config) {
  struct V {
    const Param<C>& p;
    const C& c;
    std::string operator()(double C::*m) const {
      return p.unit == Unit::kNone ? format_plain(c.*m) : format_quantity(c.*m, p.unit);
    }
    std::string operator()(int64_t C::*m) const {
      return c.*m == kAutoCount ? "auto" : std::to_string(c.*m);
    }
    std::string operator()(bool C::*m) const { return c.*m ? "true" : "false"; }
    std::string operator()(std::string C::*m) const { return c.*m; }
    std::string operator()(const EnumField<C>& e) const { return e.get(c); }
  };
  return std::visit(V{param, config}, param.field);
}

// set_param_from_text: parses `text` (with unit where the parameter has one)
// into the member. The error names only the value problem; callers prefix the
// file/line/key.
template <typename C>
Status set_param_from_text(const Param<C>& param, C& config, std::string_view text) {
  struct V {
    const Param<C>& p;
    C& c;
    std::string_view t;
    Status operator()(double C::*m) const {
      Result<double> v = p.unit == Unit::kNone ? parse_plain_number(t) : parse_quantity(t, p.unit);
      if (!v.ok()) return v.error();
      c.*m = *v;
      return Status::Ok();
    }
    Status operator()(int64_t C::*m) const {
      if (t == "auto") {
        c.*m = kAutoCount;
        return Status::Ok();
      }
      Result<int64_t> v = parse_count(t);
      if (!v.ok()) return v.error();
      c.*m = *v;
      return Status::Ok();
    }
    Status operator()(bool C::*m) const {
      Result<bool> v = parse_bool(t);
      if (!v.ok()) return v.error();
      c.*m = *v;
      return Status::Ok();
    }
    Status operator()(std::string C::*m) const {
      c.*m = std::string(t);
      return Status::Ok();
    }
    Status operator()(const EnumField<C>& e) const { return e.set(c, t); }
  };
  return std::visit(V{param, config, text}, param.field);
}

// EnumName<E>: one row of an enum's name table.
template <typename E>
struct EnumName {
  E value;
  const char* name;
};

// enum_field<C, E, &C::member, kNames>(): EnumField over a constexpr name table.
template <typename C, typename E, E C::*M, const auto& kNames>
EnumField<C> enum_field() {
  static const std::string choices = [] {
    std::string s;
    for (const auto& n : kNames) s += (s.empty() ? "" : "|") + std::string(n.name);
    return s;
  }();
  return EnumField<C>{[](const C& c) -> std::string {
                        for (const auto& n : kNames)
                          if (n.value == c.*M) return n.name;
                        return "?";
                      },
                      [](C& c, std::string_view t) -> Status {
                        for (const auto& n : kNames) {
                          if (t == n.name) {
                            c.*M = n.value;
                            return Status::Ok();
                          }
                        }
                        return make_error("'" + std::string(t) + "' is not one of " + choices);
                      },
                      choices.c_str()};
}

// enum_name / parse_enum: conversions through a name table.
template <typename E, size_t N>
const char* enum_name(const EnumName<E> (&names)[N], E value) {
  for (const auto& n : names)
    if (n.value == value) return n.name;
  return "?";
}
template <typename E, size_t N>
Result<E> parse_enum(const EnumName<E> (&names)[N], std::string_view text, std::string_view what) {
  std::string choices;
  for (const auto& n : names) {
    if (text == n.name) return n.value;
    choices += (choices.empty() ? "" : "|") + std::string(n.name);
  }
  return make_error(std::string(what) + ": '" + std::string(text) + "' is not one of " + choices);
}

// find_param: the parameter named `key`, or null.
template <typename C>
const Param<C>* find_param(std::string_view key) {
  for (const Param<C>& p : C::params())
    if (key == p.key) return &p;
  return nullptr;
}

// param_names: the keys of C's table (for did_you_mean).
template <typename C>
std::vector<std::string> param_names() {
  std::vector<std::string> names;
  for (const Param<C>& p : C::params()) names.emplace_back(p.key);
  return names;
}

}  // namespace xferlab::hw_model
