// The ufunc registry: each ufunc is a name, a number of inputs, its dispatch rules and a list
// of loops (as NumPy lists them), each loop a launcher compiled ahead of time for its types.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/layout.hpp"
#include "core/ufunc_info.hpp"

namespace gpuarr {

// One operand of a launch: an array view (data, strides over the common shape) or a scalar
// passed by value (already converted to the loop's input type).
struct UfuncOperandView {
  char* data = nullptr;
  const Dims* strides = nullptr;
  bool is_scalar = false;
  alignas(16) unsigned char scalar[16] = {};
};

// Whether a launch over `shape` (coalesced) takes its loop's contiguous kernel: one
// dimension or none, along which every array operand of the n (0 the output; scalars do
// not count) steps by its element size, sizes[i], from a 16-byte-aligned address.
inline bool contiguous_aligned_launch(const Dims& shape, const UfuncOperandView* ops, int n,
                                      const int* sizes) {
  if (shape.size() > 1) return false;
  for (int i = 0; i < n; ++i) {
    const UfuncOperandView& o = ops[i];
    if (i > 0 && o.is_scalar) continue;
    if (!shape.empty() && (*o.strides)[0] != sizes[i]) return false;
    if (reinterpret_cast<uintptr_t>(o.data) % 16 != 0) return false;
  }
  return true;
}

// Whether a launch over `shape` (coalesced) takes its loop's Rows mode in 16-byte vectors
// (elementwise_kernel's row_loop): two or more dimensions, the innermost at least
// kRowsMinInner long, along which every array operand either is broadcast (stride 0) or
// steps by its element size with every row starting 16 bytes aligned (the address and every
// outer stride a multiple of 16).
inline bool vector_rows_launch(const Dims& shape, const UfuncOperandView* ops, int n,
                               const int* sizes) {
  if (shape.size() < 2 || shape.back() < kRowsMinInner) return false;
  for (int i = 0; i < n; ++i) {
    const UfuncOperandView& o = ops[i];
    if (i > 0 && o.is_scalar) continue;
    const Dims& st = *o.strides;
    if (i > 0 && st.back() == 0) continue;
    if (st.back() != sizes[i] || reinterpret_cast<uintptr_t>(o.data) % 16 != 0) return false;
    for (size_t d = 0; d + 1 < st.size(); ++d)
      if (st[d] % 16 != 0) return false;
  }
  return true;
}

// out[...] = op(in...) over `shape` (already coalesced with all strides); operand 0 is the
// output. Launchers never wait.
using UfuncLaunch = void (*)(const Dims& shape, const UfuncOperandView* operands,
                             cudaStream_t stream);

// A ufunc: its host-side description (core/ufunc_info.hpp) and one launcher per loop.
struct UfuncDef : UfuncInfo {
  UfuncDef(const char* name, int nin, UfuncResolver resolver, const char* doc,
           UfuncRules rules = {})
      : UfuncInfo(name, nin, resolver, rules), doc(doc) {}

  std::vector<UfuncLaunch> launchers;             // parallel to loop_types
  std::vector<UfuncLaunch> converting_launchers;  // parallel to converting_loops
  const char* doc;
  // The gpuarr::ufn functor its loops apply (gpuarr/ufunc_math.cuh), which generated NVRTC
  // kernels call; nullptr when the loops are not one functor's.
  const char* functor = nullptr;
};

// All ufuncs, in registration order; stable for the process lifetime.
const std::vector<const UfuncDef*>& all_ufuncs();
const UfuncDef* find_ufunc(const std::string& name);  // nullptr if unknown

// The tables, one per ufunc_*.cu file (called once, in this order, by all_ufuncs()). Each
// file holds a few ufuncs: nvcc compiles one file on one core, so small files let a
// parallel build spread the loops over every core.
void add_arithmetic_ufuncs(std::vector<const UfuncDef*>& out);
void add_division_ufuncs(std::vector<const UfuncDef*>& out);
void add_unary_ufuncs(std::vector<const UfuncDef*>& out);
void add_rounding_ufuncs(std::vector<const UfuncDef*>& out);
void add_exp_log_ufuncs(std::vector<const UfuncDef*>& out);
void add_trig_ufuncs(std::vector<const UfuncDef*>& out);
void add_hyperbolic_ufuncs(std::vector<const UfuncDef*>& out);
void add_comparison_ufuncs(std::vector<const UfuncDef*>& out);
void add_extremum_ufuncs(std::vector<const UfuncDef*>& out);
void add_logical_ufuncs(std::vector<const UfuncDef*>& out);
void add_bitwise_ufuncs(std::vector<const UfuncDef*>& out);
void add_ternary_ufuncs(std::vector<const UfuncDef*>& out);
void add_special_ufuncs(std::vector<const UfuncDef*>& out);

}  // namespace gpuarr
