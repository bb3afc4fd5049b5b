// Products: GEMM-shaped contractions (cuBLAS for float types, an exact tiled kernel for
// integers and bool), row-wise dots and norms, einsum, cross products and singular values.
// Everything runs on the current stream of the operands' device and returns without waiting.
#pragma once
#include <string>
#include <vector>

#include "ops/ndarray.hpp"

namespace gpuarr {

// An operand seen as [batch..., rows..., cols...] through byte strides over memory that
// `base` keeps alive (base.data() is element 0).
struct GroupedView {
  NDArray base;
  Dims batch_strides, row_strides, col_strides;
};

// C[b, m, n] = sum_k A[b, m, k] * B[b, k, n], with multi-dimensional groups b, m, n, k.
// A, B and C share C's dtype. Groups that strides cannot express as one dimension are
// copied; C may be any writable view of the right shape.
void contract_gemm(const Dims& batch, const Dims& m, const Dims& k, const Dims& n,
                   const GroupedView& a, const GroupedView& b, const GroupedView& c);

// Row reductions over one dimension of K elements, for each index of `batch`.
enum class RowOp {
  Dot,        // sum x*y                    (out dtype = x dtype)
  Dotc,       // sum conj(x)*y
  Sum,        // sum x
  NormL1,     // sum |x|                    (out dtype = real dtype of x)
  NormL2,     // sqrt(sum |x|^2)
  NormSumSq,  // sum |x|^2
  NormMax,    // max |x|
  NormMin,    // min |x|
  NormCount,  // count of x != 0
  NormPow,    // (sum |x|^p)^(1/p)
};
struct RowOperand {
  const char* data;
  Dims batch_strides;
  int64_t k_stride;
};
void row_reduce(RowOp op, double p, DType x_dtype, DType out_dtype, const Dims& batch,
                int64_t k, const RowOperand& x, const RowOperand* y, char* out,
                const Dims& out_strides, cudaStream_t stream);

// NumPy's matmul (out may be null); result dtype = promote_types of the operands.
NDArray matmul(const NDArray& a, const NDArray& b, const NDArray* out);
// Sum over a[axes_a] * b[axes_b] pairwise; result dims = a's free dims then b's (tensordot).
NDArray tensordot(const NDArray& a, const Dims& axes_a, const NDArray& b, const Dims& axes_b);
// numpy.dot / numpy.vdot / numpy.inner / numpy.kron / Array API vecdot.
NDArray dot(const NDArray& a, const NDArray& b);
NDArray vdot(const NDArray& a, const NDArray& b);
NDArray inner(const NDArray& a, const NDArray& b);
NDArray kron(const NDArray& a, const NDArray& b);
NDArray vecdot(const NDArray& a, const NDArray& b, int64_t axis);

// numpy.einsum; `dtype_or_neg` < 0 for the default (promoted) dtype.
NDArray einsum(const std::string& subscripts, const std::vector<NDArray>& operands,
               int dtype_or_neg, bool greedy);

// Norm-like reduction of x over `axes` (all reduced together), keepdims as NumPy's.
NDArray reduce_norm(const NDArray& x, const Dims& axes, RowOp op, double p, bool keepdims);

// numpy.cross.
NDArray cross(const NDArray& a, const NDArray& b, int64_t axisa, int64_t axisb, int64_t axisc);

// Singular values of the matrices in the last two dims of `a` (float32/64, complex64/128),
// shape [..., min(m, n)], real dtype, descending.
NDArray singular_values(const NDArray& a);

// A view of `a` with its dims permuted so that `axes` come last (in the given order).
NDArray move_axes_last(const NDArray& a, const Dims& axes);
// A C-contiguous copy when `a` is not contiguous, else `a`.
NDArray contiguous(const NDArray& a);

}  // namespace gpuarr
