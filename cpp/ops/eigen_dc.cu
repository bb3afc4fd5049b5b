// eigh for large float64 matrices by divide and conquer (method "dc"): our reduction to
// tridiagonal form (tridiag_reduce.cu), our GPU divide-and-conquer tridiagonal eigensolver
// (tridiag_dc.cu) and cusolverDnDormtr for the back-transformation. cusolverDnXsyevd runs
// the same three stages with cuSOLVER's own reduction (~87% of its time at n = 4096) and
// its tridiagonal solver; the own stages are faster there (docs/decisions.md).
//
// Like LAPACK dsyevd, the matrix is scaled into [rmin, rmax] by its largest entry when it
// lies outside (so the reflectors' norms neither overflow nor underflow); the same readback
// finds NaN/inf input, whose results are NaN as from the Xsyevd path.
#include <cusolverDn.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/eigen_plan.hpp"
#include "ops/array_ops.hpp"
#include "ops/eigen.hpp"
#include "ops/kernels.hpp"
#include "ops/linalg_common.cuh"
#include "ops/strided.cuh"
#include "ops/tridiag.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/cusolver_handle.hpp"
#include "runtime/memory.hpp"

namespace gpuarr {
namespace {

// The largest |a_rc| over the lower triangle of a column-major n x n matrix, as the bits of
// a non-negative double (their integer order is the doubles' order; NaN sorts above inf).
// One warp per column; *out must be zeroed first.
__global__ void lower_max_abs_kernel(const double* __restrict__ a, int64_t n,
                                     unsigned long long* out) {
  const int lane = threadIdx.x & 31;
  const int64_t warps = blockDim.x >> 5;
  unsigned long long best = 0;
  for (int64_t c = blockIdx.x * warps + (threadIdx.x >> 5); c < n; c += gridDim.x * warps) {
    const double* col = a + c * n;
    for (int64_t r = c + lane; r < n; r += 32) {
      const unsigned long long bits =
          static_cast<unsigned long long>(__double_as_longlong(fabs(col[r])));
      best = bits > best ? bits : best;
    }
  }
  for (int o = 16; o > 0; o >>= 1) {
    const unsigned long long other = __shfl_xor_sync(0xffffffffu, best, o);
    best = other > best ? other : best;
  }
  if (lane == 0 && best) atomicMax(out, best);
}

__global__ void scale_lower_kernel(double* a, int64_t n, double s) {
  for (int64_t c = blockIdx.x; c < n; c += gridDim.x) {
    double* col = a + c * n;
    for (int64_t r = c + threadIdx.x; r < n; r += blockDim.x) col[r] *= s;
  }
}

__global__ void scale_kernel(double* x, int64_t count, double s) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x)
    x[i] *= s;
}

}  // namespace

EighResult eigh_dc_solve(const NDArray& a_in, bool lower, bool compute_v) {
  const SquareStack st = check_square_stack(a_in.shape);
  const int64_t n = st.n, batch = st.batch;
  const DType t = DType::Float64;  // "dc" runs only where the compute dtype is float64
  // Column-major copy whose LOWER triangle holds the named one: for UPLO='U', the C-order
  // copy of A is column-major A^T, whose lower triangle is A's upper one transposed.
  NDArray cm = lower ? transpose_copy(a_in, t) : copy_array(a_in, t, 'C');
  const cudaStream_t stream = stream_for(cm);
  Dims w_shape = st.batch_shape;
  w_shape.push_back(n);
  NDArray w = empty_array(w_shape, t, 'C');
  NDArray q = empty_array(a_in.shape, t, 'C');  // column-major eigenvectors per matrix
  auto scratch = allocate_device_memory(sizeof(double) * size_t(3 * n) + sizeof(int) * batch +
                                        sizeof(unsigned long long));
  double* d = static_cast<double*>(scratch->ptr());
  double* e = d + n;
  double* tau = e + n;
  auto* max_bits = reinterpret_cast<unsigned long long*>(tau + n);
  int* info = reinterpret_cast<int*>(max_bits + 1);
  GPUARR_CUDA_CHECK(cudaMemsetAsync(info, 0, sizeof(int) * batch, stream));
  CusolverHandles h = cusolver_handle(stream);

  // LAPACK dsyevd's scaling bounds.
  const double safmin = std::numeric_limits<double>::min();
  const double eps = std::numeric_limits<double>::epsilon();
  const double rmin = std::sqrt(safmin / eps), rmax = std::sqrt(eps / safmin);
  std::shared_ptr<Memory> ormtr_ws;
  int ormtr_lwork = 0;
  for (int64_t b = 0; b < batch; ++b) {
    double* A = reinterpret_cast<double*>(cm.data()) + b * n * n;
    double* wb = reinterpret_cast<double*>(w.data()) + b * n;
    double* Q = reinterpret_cast<double*>(q.data()) + b * n * n;
    GPUARR_CUDA_CHECK(cudaMemsetAsync(max_bits, 0, sizeof(unsigned long long), stream));
    lower_max_abs_kernel<<<grid_for(n * 32, 256), 256, 0, stream>>>(A, n, max_bits);
    check_launch("lower_max_abs_kernel");
    unsigned long long bits = 0;
    read_small_device_bytes(&bits, max_bits, sizeof(bits), stream);
    double anrm;
    std::memcpy(&anrm, &bits, sizeof(anrm));
    if (!std::isfinite(anrm)) {  // NaN or inf in the read triangle: NaN results
      const double nan = std::numeric_limits<double>::quiet_NaN();
      launch_fill(reinterpret_cast<char*>(wb), {n}, {8}, 8, &nan, stream);
      launch_fill(reinterpret_cast<char*>(Q), {n * n}, {8}, 8, &nan, stream);
      continue;
    }
    double sigma = 1;
    if (anrm > 0 && anrm < rmin) sigma = rmin / anrm;
    if (anrm > rmax) sigma = rmax / anrm;
    if (sigma != 1) {
      scale_lower_kernel<<<grid_for(n * 256, 256), 256, 0, stream>>>(A, n, sigma);
      check_launch("scale_lower_kernel");
    }
    tridiag_reduce_lower(A, n, d, e, tau, info + b, stream);
    tridiag_dc_eigh(d, e, n, wb, Q, stream);
    if (compute_v) {
      if (!ormtr_ws) {
        GPUARR_CUSOLVER_CHECK(cusolverDnDormtr_bufferSize(
            h.handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, int(n), int(n), A,
            int(n), tau, Q, int(n), &ormtr_lwork));
        ormtr_ws = allocate_device_memory(std::max<size_t>(size_t(ormtr_lwork) * 8, 16));
      }
      GPUARR_CUSOLVER_CHECK(cusolverDnDormtr(
          h.handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, int(n), int(n), A,
          int(n), tau, Q, int(n), static_cast<double*>(ormtr_ws->ptr()), ormtr_lwork,
          info + b));
    }
    if (sigma != 1) {
      scale_kernel<<<grid_for(n, 256), 256, 0, stream>>>(wb, n, 1 / sigma);
      check_launch("scale_kernel");
    }
  }
  EighResult res;
  res.method = EigMethod::TridiagDC;
  // A nonzero info is an invalid argument to cuSOLVER: a bug, reported as a failure.
  res.failed = linalg_detail::any_info_nonzero(info, batch, stream);
  res.w = w;
  if (compute_v) res.v = transpose_copy(q, t);
  return res;
}

}  // namespace gpuarr
