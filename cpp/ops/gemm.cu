// contract_gemm: batched GEMM over strided views. float16/32/64 and complex go to cuBLAS
// (row-major trick C^T = B^T A^T, transposes passed as operations, gemv for matrix-vector,
// strided-batched calls for uniform batch strides, zero strides for broadcast operands);
// integers and bool go to an exact tiled kernel; M = N = 1 goes to the row-dot kernel.
#include <cublas_v2.h>

#include <climits>
#include <cstring>

#include "core/errors.hpp"
#include "ops/array_ops.hpp"
#include "ops/device_types.cuh"
#include "ops/products.hpp"
#include "ops/products_arith.cuh"
#include "ops/strided.cuh"
#include "runtime/cublas_handle.hpp"

namespace gpuarr {
namespace {

constexpr int kTileM = 64, kTileN = 64, kTileK = 16, kGemmThreads = 256;

struct GemmArgs {
  int64_t M, N, K;
  int64_t am, ak, bk, bn, cm, cn;  // byte strides
  int batch_nd;
  int64_t batch_shape[kKernelDims];
  int64_t batch_strides[3][kKernelDims];
  int64_t batch_count;
  const char* a;
  const char* b;
  char* c;
};

template <class T>
__global__ void __launch_bounds__(kGemmThreads) gemm_tiled_kernel(GemmArgs g) {
  using A = typename AccOf<T>::type;
  __shared__ A As[kTileK][kTileM + 1];
  __shared__ A Bs[kTileK][kTileN + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int64_t m0 = int64_t(blockIdx.y) * kTileM, n0 = int64_t(blockIdx.x) * kTileN;
  for (int64_t bi = blockIdx.z; bi < g.batch_count; bi += gridDim.z) {
    int64_t rem = bi, oa = 0, ob = 0, oc = 0;
    for (int d = g.batch_nd - 1; d >= 0; --d) {
      const int64_t idx = rem % g.batch_shape[d];
      rem /= g.batch_shape[d];
      oa += idx * g.batch_strides[0][d];
      ob += idx * g.batch_strides[1][d];
      oc += idx * g.batch_strides[2][d];
    }
    const char* pa = g.a + oa;
    const char* pb = g.b + ob;
    char* pc = g.c + oc;
    A acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) acc[i][j] = acc_zero<A>();
    for (int64_t k0 = 0; k0 < g.K; k0 += kTileK) {
      for (int i = threadIdx.x; i < kTileM * kTileK; i += kGemmThreads) {
        const int mm = i / kTileK, kk = i % kTileK;
        const int64_t m = m0 + mm, k = k0 + kk;
        As[kk][mm] = (m < g.M && k < g.K)
                         ? to_acc(*reinterpret_cast<const T*>(pa + m * g.am + k * g.ak))
                         : acc_zero<A>();
      }
      for (int i = threadIdx.x; i < kTileN * kTileK; i += kGemmThreads) {
        const int kk = i / kTileN, nn = i % kTileN;
        const int64_t n = n0 + nn, k = k0 + kk;
        Bs[kk][nn] = (n < g.N && k < g.K)
                         ? to_acc(*reinterpret_cast<const T*>(pb + k * g.bk + n * g.bn))
                         : acc_zero<A>();
      }
      __syncthreads();
#pragma unroll 4
      for (int kk = 0; kk < kTileK; ++kk) {
        A ar[4], br[4];
#pragma unroll
        for (int i = 0; i < 4; ++i) ar[i] = As[kk][ty + 16 * i];
#pragma unroll
        for (int j = 0; j < 4; ++j) br[j] = Bs[kk][tx + 16 * j];
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int j = 0; j < 4; ++j) acc[i][j] = acc_fma(acc[i][j], ar[i], br[j]);
      }
      __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int64_t m = m0 + ty + 16 * i;
      if (m >= g.M) continue;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int64_t n = n0 + tx + 16 * j;
        if (n < g.N) *reinterpret_cast<T*>(pc + m * g.cm + n * g.cn) = from_acc<T>(acc[i][j]);
      }
    }
  }
}

// One group of dims as one (size, stride), or false when strides cannot express it.
bool collapse(const Dims& shape, const Dims& strides, int64_t& size, int64_t& stride) {
  size = shape_size(shape);
  Dims s = shape;
  std::vector<Dims> st{strides};
  coalesce_dims(s, st);
  if (s.size() > 1) return false;
  stride = (s.empty() || s[0] == 1) ? 0 : st[0][0];
  return true;
}

// A C-contiguous copy of one grouped operand, laid out [batch, rows, cols].
GroupedView contiguous_copy(const Dims& batch, const Dims& rows, const Dims& cols,
                            const GroupedView& v) {
  Dims shape = batch, strides = v.batch_strides;
  shape.insert(shape.end(), rows.begin(), rows.end());
  shape.insert(shape.end(), cols.begin(), cols.end());
  strides.insert(strides.end(), v.row_strides.begin(), v.row_strides.end());
  strides.insert(strides.end(), v.col_strides.begin(), v.col_strides.end());
  NDArray src = v.base;
  src.shape = shape;
  src.strides = strides;
  NDArray dst = empty_array(shape, v.base.dtype, 'C');
  assign_array(dst, src);
  GroupedView out;
  const Dims cs = contiguous_strides(shape, dst.itemsize(), 'C');
  const size_t nb = batch.size(), nr = rows.size();
  out.batch_strides.assign(cs.begin(), cs.begin() + nb);
  out.row_strides.assign(cs.begin() + nb, cs.begin() + nb + nr);
  out.col_strides.assign(cs.begin() + nb + nr, cs.end());
  out.base = std::move(dst);
  return out;
}

// How cuBLAS sees a rows x cols matrix with element strides (sr, sc): stored column-major
// with leading dimension ld, as itself (op N) or transposed (op T).
struct ColMajor {
  bool ok = false;
  cublasOperation_t op = CUBLAS_OP_N;
  int64_t ld = 1;
};
ColMajor as_col_major(int64_t rows, int64_t cols, int64_t sr, int64_t sc) {
  ColMajor d;
  if (sr == 1 || rows == 1) {
    const int64_t ld = cols == 1 ? std::max<int64_t>(rows, 1) : sc;
    if (ld >= std::max<int64_t>(rows, 1) && ld <= INT_MAX) return {true, CUBLAS_OP_N, ld};
  }
  if (sc == 1 || cols == 1) {
    const int64_t ld = rows == 1 ? std::max<int64_t>(cols, 1) : sr;
    if (ld >= std::max<int64_t>(cols, 1) && ld <= INT_MAX) return {true, CUBLAS_OP_T, ld};
  }
  return d;
}

bool elem_strides(const Dims& bytes, int64_t isz, Dims& out) {
  out.clear();
  for (int64_t s : bytes) {
    if (s % isz != 0) return false;
    out.push_back(s / isz);
  }
  return true;
}

// One (strided-)batched GEMM call: C_colmajor(m x n) = op(A)(m x k) op(B)(k x n).
void cublas_gemm(cublasHandle_t h, DType t, cublasOperation_t opa, cublasOperation_t opb,
                 int64_t m, int64_t n, int64_t k, const char* a, int64_t lda, int64_t sa,
                 const char* b, int64_t ldb, int64_t sb, char* c, int64_t ldc, int64_t sc,
                 int64_t batch) {
  const int M = int(m), N = int(n), K = int(k), LA = int(lda), LB = int(ldb), LC = int(ldc);
  const int B = int(batch);
  switch (t) {
    case DType::Float16: {
      const float one = 1, zero = 0;
      GPUARR_CUBLAS_CHECK(cublasGemmStridedBatchedEx(
          h, opa, opb, M, N, K, &one, a, CUDA_R_16F, LA, sa, b, CUDA_R_16F, LB, sb, &zero, c,
          CUDA_R_16F, LC, sc, B, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
      return;
    }
    case DType::Float32: {
      const float one = 1, zero = 0;
      auto A = reinterpret_cast<const float*>(a);
      auto Bp = reinterpret_cast<const float*>(b);
      auto C = reinterpret_cast<float*>(c);
      if (B == 1) GPUARR_CUBLAS_CHECK(cublasSgemm(h, opa, opb, M, N, K, &one, A, LA, Bp, LB, &zero, C, LC));
      else GPUARR_CUBLAS_CHECK(cublasSgemmStridedBatched(h, opa, opb, M, N, K, &one, A, LA, sa, Bp, LB, sb, &zero, C, LC, sc, B));
      return;
    }
    case DType::Float64: {
      const double one = 1, zero = 0;
      auto A = reinterpret_cast<const double*>(a);
      auto Bp = reinterpret_cast<const double*>(b);
      auto C = reinterpret_cast<double*>(c);
      if (B == 1) GPUARR_CUBLAS_CHECK(cublasDgemm(h, opa, opb, M, N, K, &one, A, LA, Bp, LB, &zero, C, LC));
      else GPUARR_CUBLAS_CHECK(cublasDgemmStridedBatched(h, opa, opb, M, N, K, &one, A, LA, sa, Bp, LB, sb, &zero, C, LC, sc, B));
      return;
    }
    case DType::Complex64: {
      const cuComplex one{1, 0}, zero{0, 0};
      auto A = reinterpret_cast<const cuComplex*>(a);
      auto Bp = reinterpret_cast<const cuComplex*>(b);
      auto C = reinterpret_cast<cuComplex*>(c);
      if (B == 1) GPUARR_CUBLAS_CHECK(cublasCgemm(h, opa, opb, M, N, K, &one, A, LA, Bp, LB, &zero, C, LC));
      else GPUARR_CUBLAS_CHECK(cublasCgemmStridedBatched(h, opa, opb, M, N, K, &one, A, LA, sa, Bp, LB, sb, &zero, C, LC, sc, B));
      return;
    }
    default: {
      const cuDoubleComplex one{1, 0}, zero{0, 0};
      auto A = reinterpret_cast<const cuDoubleComplex*>(a);
      auto Bp = reinterpret_cast<const cuDoubleComplex*>(b);
      auto C = reinterpret_cast<cuDoubleComplex*>(c);
      if (B == 1) GPUARR_CUBLAS_CHECK(cublasZgemm(h, opa, opb, M, N, K, &one, A, LA, Bp, LB, &zero, C, LC));
      else GPUARR_CUBLAS_CHECK(cublasZgemmStridedBatched(h, opa, opb, M, N, K, &one, A, LA, sa, Bp, LB, sb, &zero, C, LC, sc, B));
      return;
    }
  }
}

// y = op(A) x, A column-major (m x n, lda).
bool cublas_gemv(cublasHandle_t h, DType t, cublasOperation_t op, int64_t m, int64_t n,
                 const char* a, int64_t lda, const char* x, int64_t incx, char* y,
                 int64_t incy) {
  if (incx <= 0 || incy <= 0 || incx > INT_MAX || incy > INT_MAX) return false;
  const int M = int(m), N = int(n), LA = int(lda), IX = int(incx), IY = int(incy);
  switch (t) {
    case DType::Float32: {
      const float one = 1, zero = 0;
      GPUARR_CUBLAS_CHECK(cublasSgemv(h, op, M, N, &one, reinterpret_cast<const float*>(a), LA,
                                      reinterpret_cast<const float*>(x), IX, &zero,
                                      reinterpret_cast<float*>(y), IY));
      return true;
    }
    case DType::Float64: {
      const double one = 1, zero = 0;
      GPUARR_CUBLAS_CHECK(cublasDgemv(h, op, M, N, &one, reinterpret_cast<const double*>(a), LA,
                                      reinterpret_cast<const double*>(x), IX, &zero,
                                      reinterpret_cast<double*>(y), IY));
      return true;
    }
    case DType::Complex64: {
      const cuComplex one{1, 0}, zero{0, 0};
      GPUARR_CUBLAS_CHECK(cublasCgemv(h, op, M, N, &one, reinterpret_cast<const cuComplex*>(a), LA,
                                      reinterpret_cast<const cuComplex*>(x), IX, &zero,
                                      reinterpret_cast<cuComplex*>(y), IY));
      return true;
    }
    case DType::Complex128: {
      const cuDoubleComplex one{1, 0}, zero{0, 0};
      GPUARR_CUBLAS_CHECK(cublasZgemv(h, op, M, N, &one,
                                      reinterpret_cast<const cuDoubleComplex*>(a), LA,
                                      reinterpret_cast<const cuDoubleComplex*>(x), IX, &zero,
                                      reinterpret_cast<cuDoubleComplex*>(y), IY));
      return true;
    }
    default:
      return false;
  }
}

struct Flat {
  int64_t M, N, K;
  int64_t am, ak, bk, bn, cm, cn;  // bytes
};

// cuBLAS for one batch slice group: batch strides (bytes) sa, sb, sc over `count` matrices.
// Returns false when the layout does not suit cuBLAS.
bool try_cublas(DType t, const Flat& f, const char* a, const char* b, char* c, int64_t sa,
                int64_t sb, int64_t sc, int64_t count, cudaStream_t stream) {
  const int64_t isz = itemsize(t);
  Dims e;
  if (!elem_strides({f.am, f.ak, f.bk, f.bn, f.cm, f.cn, sa, sb, sc}, isz, e)) return false;
  const int64_t am = e[0], ak = e[1], bk = e[2], bn = e[3], cm = e[4], cn = e[5];
  if (f.M > INT_MAX || f.N > INT_MAX || f.K > INT_MAX || count > INT_MAX) return false;
  // Matrix-vector products: gemv (float32/64, complex) when not batched.
  if (count == 1 && t != DType::Float16 && (f.N == 1) != (f.M == 1)) {
    cublasHandle_t h = cublas_handle(stream);
    if (f.N == 1) {
      const ColMajor d = as_col_major(f.M, f.K, am, ak);
      if (d.ok) {
        const bool n_op = d.op == CUBLAS_OP_N;
        if (cublas_gemv(h, t, d.op, n_op ? f.M : f.K, n_op ? f.K : f.M, a, d.ld, b, bk, c, cm))
          return true;
      }
    } else {
      const ColMajor d = as_col_major(f.N, f.K, bn, bk);  // B^T: N x K
      if (d.ok) {
        const bool n_op = d.op == CUBLAS_OP_N;
        if (cublas_gemv(h, t, d.op, n_op ? f.N : f.K, n_op ? f.K : f.N, b, d.ld, a, ak, c, cn))
          return true;
      }
    }
  }
  // cuBLAS is column-major: a row-major C is the column-major C^T = B^T A^T (tried first);
  // a column-major C is A B itself.
  auto try_orientation = [&](int64_t m, int64_t n, int64_t c0, int64_t c1, const char* x,
                             int64_t x0, int64_t x1, int64_t x_batch, const char* y,
                             int64_t y0, int64_t y1, int64_t y_batch) {
    const ColMajor dc = as_col_major(m, n, c0, c1);
    const ColMajor dx = as_col_major(m, f.K, x0, x1);
    const ColMajor dy = as_col_major(f.K, n, y0, y1);
    if (!(dc.ok && dc.op == CUBLAS_OP_N && dx.ok && dy.ok)) return false;
    cublas_gemm(cublas_handle(stream), t, dx.op, dy.op, m, n, f.K, x, dx.ld, x_batch, y, dy.ld,
                y_batch, c, dc.ld, e[8], count);
    return true;
  };
  return try_orientation(f.N, f.M, cn, cm, b, bn, bk, e[7], a, ak, am, e[6]) ||
         try_orientation(f.M, f.N, cm, cn, a, am, ak, e[6], b, bk, bn, e[7]);
}

bool is_cublas_type(DType t) {
  return t == DType::Float16 || t == DType::Float32 || t == DType::Float64 ||
         t == DType::Complex64 || t == DType::Complex128;
}

void launch_tiled(DType t, const Flat& f, const Dims& batch, const std::vector<Dims>& bstr,
                  const char* a, const char* b, char* c, cudaStream_t stream) {
  if (batch.size() > static_cast<size_t>(kKernelDims)) {
    throw ValueError("matmul: too many batch dimensions");
  }
  GemmArgs g{};
  g.M = f.M; g.N = f.N; g.K = f.K;
  g.am = f.am; g.ak = f.ak; g.bk = f.bk; g.bn = f.bn; g.cm = f.cm; g.cn = f.cn;
  g.batch_nd = static_cast<int>(batch.size());
  g.batch_count = shape_size(batch);
  for (size_t d = 0; d < batch.size(); ++d) {
    g.batch_shape[d] = batch[d];
    for (int k = 0; k < 3; ++k) g.batch_strides[k][d] = bstr[k][d];
  }
  g.a = a; g.b = b; g.c = c;
  const dim3 grid(static_cast<unsigned>((f.N + kTileN - 1) / kTileN),
                  static_cast<unsigned>(std::min<int64_t>((f.M + kTileM - 1) / kTileM, 65535)),
                  static_cast<unsigned>(std::min<int64_t>(g.batch_count, 65535)));
  if ((f.M + kTileM - 1) / kTileM > 65535) throw ValueError("matmul: too many rows");
  dispatch_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    gemm_tiled_kernel<T><<<grid, kGemmThreads, 0, stream>>>(g);
  });
  check_launch("gemm_tiled_kernel");
}

}  // namespace

void contract_gemm(const Dims& batch, const Dims& m, const Dims& k, const Dims& n,
                   const GroupedView& a_in, const GroupedView& b_in, const GroupedView& c_in) {
  const DType t = c_in.base.dtype;
  const cudaStream_t stream = stream_for(c_in.base);
  const int64_t M = shape_size(m), N = shape_size(n), K = shape_size(k);
  const int64_t nbatch = shape_size(batch);
  if (M == 0 || N == 0 || nbatch == 0) return;
  if (K == 0) {  // empty sums: zeros
    NDArray cv = c_in.base;
    cv.shape = batch;
    cv.shape.insert(cv.shape.end(), m.begin(), m.end());
    cv.shape.insert(cv.shape.end(), n.begin(), n.end());
    cv.strides = c_in.batch_strides;
    cv.strides.insert(cv.strides.end(), c_in.row_strides.begin(), c_in.row_strides.end());
    cv.strides.insert(cv.strides.end(), c_in.col_strides.begin(), c_in.col_strides.end());
    static const char zero[16] = {};
    fill_array(cv, zero);
    return;
  }
  GroupedView a = a_in, b = b_in, c = c_in;
  Flat f{M, N, K, 0, 0, 0, 0, 0, 0};
  int64_t s1, s2;
  if (!collapse(m, a.row_strides, s1, f.am) || !collapse(k, a.col_strides, s2, f.ak)) {
    a = contiguous_copy(batch, m, k, a);
    collapse(m, a.row_strides, s1, f.am);
    collapse(k, a.col_strides, s2, f.ak);
  }
  if (!collapse(k, b.row_strides, s1, f.bk) || !collapse(n, b.col_strides, s2, f.bn)) {
    b = contiguous_copy(batch, k, n, b);
    collapse(k, b.row_strides, s1, f.bk);
    collapse(n, b.col_strides, s2, f.bn);
  }
  bool c_temp = false;
  GroupedView c_orig = c;
  if (!collapse(m, c.row_strides, s1, f.cm) || !collapse(n, c.col_strides, s2, f.cn)) {
    NDArray tmp = empty_array([&] {
      Dims s = batch;
      s.insert(s.end(), m.begin(), m.end());
      s.insert(s.end(), n.begin(), n.end());
      return s;
    }(), t, 'C');
    const Dims cs = contiguous_strides(tmp.shape, tmp.itemsize(), 'C');
    c.base = tmp;
    c.batch_strides.assign(cs.begin(), cs.begin() + batch.size());
    c.row_strides.assign(cs.begin() + batch.size(), cs.begin() + batch.size() + m.size());
    c.col_strides.assign(cs.begin() + batch.size() + m.size(), cs.end());
    collapse(m, c.row_strides, s1, f.cm);
    collapse(n, c.col_strides, s2, f.cn);
    c_temp = true;
  }
  Dims bshape = batch;
  std::vector<Dims> bstr{a.batch_strides, b.batch_strides, c.batch_strides};
  coalesce_dims(bshape, bstr);
  const char* pa = a.base.data();
  const char* pb = b.base.data();
  char* pc = c.base.data();

  if (M == 1 && N == 1) {
    // Dots along k for each batch element: the bandwidth-bound row kernel.
    RowOperand x{pa, bstr[0], f.ak}, y{pb, bstr[1], f.bk};
    row_reduce(RowOp::Dot, 0, t, t, bshape, K, x, &y, pc, bstr[2], stream);
  } else {
    bool done = false;
    if (is_cublas_type(t)) {
      // Uniform batch strides: one strided-batched call per outer batch index.
      const size_t nd = bshape.size();
      const int64_t inner = nd ? bshape[nd - 1] : 1;
      const int64_t sa = nd ? bstr[0][nd - 1] : 0, sb = nd ? bstr[1][nd - 1] : 0,
                    sc = nd ? bstr[2][nd - 1] : 0;
      const int64_t outer = nbatch / std::max<int64_t>(inner, 1);
      done = true;
      for (int64_t o = 0; o < outer && done; ++o) {
        int64_t rem = o, oa = 0, ob = 0, oc = 0;
        for (int d = static_cast<int>(nd) - 2; d >= 0; --d) {
          const int64_t idx = rem % bshape[d];
          rem /= bshape[d];
          oa += idx * bstr[0][d];
          ob += idx * bstr[1][d];
          oc += idx * bstr[2][d];
        }
        done = try_cublas(t, f, pa + oa, pb + ob, pc + oc, sa, sb, sc, inner, stream);
      }
      if (!done) {
        // Retry with contiguous copies of A and B (always expressible for cuBLAS).
        GroupedView a2 = contiguous_copy(batch, m, k, a_in), b2 = contiguous_copy(batch, k, n, b_in);
        Flat f2 = f;
        collapse(m, a2.row_strides, s1, f2.am);
        collapse(k, a2.col_strides, s2, f2.ak);
        collapse(k, b2.row_strides, s1, f2.bk);
        collapse(n, b2.col_strides, s2, f2.bn);
        Dims bshape2 = batch;
        std::vector<Dims> bstr2{a2.batch_strides, b2.batch_strides, c.batch_strides};
        coalesce_dims(bshape2, bstr2);
        const size_t nd2 = bshape2.size();
        if (nd2 <= 1) {
          done = try_cublas(t, f2, a2.base.data(), b2.base.data(), pc,
                            nd2 ? bstr2[0][0] : 0, nd2 ? bstr2[1][0] : 0,
                            nd2 ? bstr2[2][0] : 0, nd2 ? bshape2[0] : 1, stream);
        }
        if (!done) {
          launch_tiled(t, f2, bshape2, bstr2, a2.base.data(), b2.base.data(), pc, stream);
          done = true;
        }
      }
    }
    if (!done) launch_tiled(t, f, bshape, bstr, pa, pb, pc, stream);
  }

  if (c_temp) {
    NDArray dst = c_orig.base, src = c.base;
    Dims shape = batch;
    shape.insert(shape.end(), m.begin(), m.end());
    shape.insert(shape.end(), n.begin(), n.end());
    dst.shape = shape;
    dst.strides = c_orig.batch_strides;
    dst.strides.insert(dst.strides.end(), c_orig.row_strides.begin(), c_orig.row_strides.end());
    dst.strides.insert(dst.strides.end(), c_orig.col_strides.begin(), c_orig.col_strides.end());
    src.shape = shape;
    src.strides = contiguous_strides(shape, src.itemsize(), 'C');
    assign_array(dst, src);
  }
}

}  // namespace gpuarr
