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

// Param<C>: one configuration parameter of config struct C.
//   key:  TOML key inside the struct's section ("update_latency").
//   unit: Unit::kNone for plain numbers (counts, ratios); otherwise the value
//         must be written with its unit ("20ns", "25GBps").
template <typename C>
struct Param {
  const char* key;
  Unit unit;
  const char* description;
  FieldRef<C> field;
};

// ParamValue: a parameter's current value as text with its unit ("700ns",
// "25GBps", "16B", "4", "true", "spill").
template <typename C>
std::string param_value_text(const Param<C>& param, const C& config);

// set_param_from_text: parses `text` (with unit where the parameter has one)
// into the member. The error names only the value problem; callers prefix the
// file/line/key.
template <typename C>
Status set_param_from_text(const Param<C>& param, C& config, std::string_view text);

// format_quantity: `value` (in base units) with a readable unit suffix that
// parse_quantity accepts back exactly enough for round trips ("1.5us", "25GBps").
std::string format_quantity(double value, Unit unit);

}  // namespace xferlab::hw_model
