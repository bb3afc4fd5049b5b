#include "ops/ufunc_types.cuh"

namespace gpuarr {
namespace {

struct Where {
  template <class T> __device__ T operator()(bool c, T x, T y) const { return c ? x : y; }
};

// The unsigned integer of T's size and alignment: where moves bits, so one kernel serves
// every such type of a size (the complex types, aligned to their component, keep their own).
template <class T>
using bits_t = typename std::conditional_t<
    alignof(T) != sizeof(T), TypeTag<T>,
    std::conditional_t<sizeof(T) == 1, TypeTag<uint8_t>,
    std::conditional_t<sizeof(T) == 2, TypeTag<uint16_t>,
                       std::conditional_t<sizeof(T) == 4, TypeTag<uint32_t>,
                                          std::conditional_t<sizeof(T) == 8, TypeTag<uint64_t>,
                                                             TypeTag<T>>>>>>::type;

// where(condition, x, y): the condition is bool (the caller casts it), x and y one type.
template <class... Ts>
UfuncDef* make_where() {
  auto* def = new UfuncDef("where", 3, UfuncResolver::Default,
                           "Return elements chosen from x or y depending on condition.",
                           kUfuncWhereSelect);
  auto add = [&](auto tag) {
    using T = typename decltype(tag)::type;
    using B = bits_t<T>;
    def->loop_types.push_back({{DType::Bool, dtype_of<T>(), dtype_of<T>()}, dtype_of<T>()});
    def->launchers.push_back(&launch_elementwise<Where, B, 3, B, bool>);
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
