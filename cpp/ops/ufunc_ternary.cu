#include "ops/ufunc_types.cuh"

namespace gpuarr {
namespace {

struct Where {
  template <class T> __device__ T operator()(bool c, T x, T y) const { return c ? x : y; }
};

// where(condition, x, y): the condition is bool (the caller casts it), x and y one type.
template <class... Ts>
UfuncDef* make_where() {
  auto* def = new UfuncDef("where", 3, UfuncResolver::Default,
                           "Return elements chosen from x or y depending on condition.",
                           kUfuncWhereSelect);
  auto add = [&](auto tag) {
    using T = typename decltype(tag)::type;
    def->loop_types.push_back({{DType::Bool, dtype_of<T>(), dtype_of<T>()}, dtype_of<T>()});
    def->launchers.push_back(&launch_elementwise<Where, T, 3, T, bool>);
  };
  (add(TypeTag<Ts>{}), ...);
  return def;
}

}  // namespace

void add_ternary_ufuncs(std::vector<const UfuncDef*>& out) {
  out.push_back(make_ufunc<ufn::Clip, 3, GA_ALL>("clip", R::Default,
                                                 "Clip (limit) the values in an array."));
  out.push_back(make_where<GA_ALL>());
}

}  // namespace gpuarr
