#include "bindings/registry.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace gpuarr::bind {

namespace {
// A function-local static: registrars in other files run during static initialisation,
// in an unspecified order, possibly before a namespace-scope vector would exist.
std::vector<std::pair<int, BindFunction>>& registered() {
  static auto* list = new std::vector<std::pair<int, BindFunction>>();
  return *list;
}
}  // namespace

BindingRegistrar::BindingRegistrar(int order, BindFunction fn) {
  registered().emplace_back(order, fn);
}

void run_registered_bindings(pybind11::module_& m) {
  auto list = registered();
  std::stable_sort(list.begin(), list.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& entry : list) entry.second(m);
}

}  // namespace gpuarr::bind
