#include "ops/ufunc.hpp"

namespace gpuarr {

const std::vector<const UfuncDef*>& all_ufuncs() {
  static const std::vector<const UfuncDef*>* list = [] {
    auto* v = new std::vector<const UfuncDef*>();
    add_arithmetic_ufuncs(*v);
    add_division_ufuncs(*v);
    add_unary_ufuncs(*v);
    add_rounding_ufuncs(*v);
    add_exp_log_ufuncs(*v);
    add_trig_ufuncs(*v);
    add_hyperbolic_ufuncs(*v);
    add_comparison_ufuncs(*v);
    add_extremum_ufuncs(*v);
    add_logical_ufuncs(*v);
    add_bitwise_ufuncs(*v);
    add_ternary_ufuncs(*v);
    add_special_ufuncs(*v);
    return v;
  }();
  return *list;
}

const UfuncDef* find_ufunc(const std::string& name) {
  for (const UfuncDef* d : all_ufuncs())
    if (name == d->name) return d;
  return nullptr;
}

}  // namespace gpuarr
