#include "core/eigen_plan.hpp"

#include <cstdlib>

#include "core/errors.hpp"
#include "core/routing_thresholds.hpp"

namespace gpuarr {

namespace {

bool is_real_compute(DType t) { return t == DType::Float32 || t == DType::Float64; }

bool available(EigMethod m, int64_t n, DType compute, bool compute_v,
               const EighAvailability& avail) {
  switch (m) {
    case EigMethod::Own: return own_kernel_fits(n, compute, compute_v, avail.smem_limit);
    case EigMethod::OwnJacobi:
      return jacobi_kernel_fits(n, compute, compute_v, avail.smem_limit);
    case EigMethod::Syevj: return n <= kSyevjBatchedMaxN;
    case EigMethod::XsyevBatched: return avail.xsyev_batched;
    case EigMethod::Syevd: return true;
    case EigMethod::TridiagDC: return compute == DType::Float64 && n <= kTridiagDcMaxN;
    default: return false;
  }
}

}  // namespace

EigMethod parse_eig_method(const std::string& name) {
  if (name == "auto") return EigMethod::Auto;
  if (name == "syevj") return EigMethod::Syevj;
  if (name == "xsyev_batched") return EigMethod::XsyevBatched;
  if (name == "own") return EigMethod::Own;
  if (name == "syevd") return EigMethod::Syevd;
  if (name == "own_jacobi") return EigMethod::OwnJacobi;
  if (name == "dc") return EigMethod::TridiagDC;
  throw ValueError("unknown eigen method '" + name +
                   "' (auto, syevj, xsyev_batched, own, own_jacobi, syevd, dc)");
}

const char* eig_method_name(EigMethod m) {
  switch (m) {
    case EigMethod::Auto: return "auto";
    case EigMethod::Syevj: return "syevj";
    case EigMethod::XsyevBatched: return "xsyev_batched";
    case EigMethod::Own: return "own";
    case EigMethod::Syevd: return "syevd";
    case EigMethod::OwnJacobi: return "own_jacobi";
    case EigMethod::TridiagDC: return "dc";
  }
  return "?";
}

SquareStack check_square_stack(const Dims& shape) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  if (nd < 2) {
    throw LinAlgError(std::to_string(nd) +
                      "-dimensional array given. Array must be at least two-dimensional");
  }
  if (shape[nd - 1] != shape[nd - 2]) {
    throw LinAlgError("Last 2 dimensions of the array must be square");
  }
  SquareStack s;
  s.batch_shape.assign(shape.begin(), shape.end() - 2);
  s.batch = shape_size(s.batch_shape);
  s.n = shape[nd - 1];
  return s;
}

DType eigen_compute_dtype(DType t) {
  switch (t) {
    case DType::Float32:
    case DType::Float64:
    case DType::Complex64:
    case DType::Complex128: return t;
    case DType::Float16: return DType::Float32;
    default: break;
  }
  if (t == DType::Bool || is_integer(t)) return DType::Float64;
  throw TypeError(std::string("array type ") + name(t) + " is unsupported in linalg");
}

DType eigen_result_dtype(DType t) {
  if (t == DType::Float16) return DType::Float16;
  return eigen_compute_dtype(t);
}

size_t own_kernel_smem_bytes(int64_t n, DType compute, bool compute_v) {
  const int64_t isz = itemsize(compute);
  const int64_t m = n + (n & 1);  // padded to even (a decoupled zero row/column)
  const int64_t ld = m + 1;       // odd leading dimension: fewer bank conflicts
  const int64_t pairs = m / 2;
  int64_t bytes = m * ld * isz * (compute_v ? 2 : 1);
  // Must match the layout in cpp/ops/eigen_jacobi.cu.
  bytes += pairs * 3 * isz;  // c, s, t of each rotation of a step
  bytes += pairs * 3 * 4;    // p, q and the active flag of each rotation
  bytes += m * 4;            // rank of each eigenvalue (the final sort)
  bytes += 8 + 34 * 8;       // alignment slack and the block reduction scratch (double)
  return static_cast<size_t>(bytes);
}

int own_kernel_threads(int64_t n) {
  if (n <= 16) return 64;
  if (n <= 40) return 128;
  if (n <= 80) return 256;
  return 512;
}

int64_t packed_tridiag_scratch_elements(int64_t n) { return n * (n + 1) / 2 + 4 * n; }

size_t own_values_smem_bytes(int64_t n, DType compute) {
  const int64_t isz = itemsize(compute);
  // Must match the layout in cpp/ops/eigen_tridiag.cu: the packed triangle and its vectors,
  // alignment slack, the block reduction scratch.
  return static_cast<size_t>(packed_tridiag_scratch_elements(n) * isz + 8 + 34 * 8);
}

size_t kth_eigenpair_smem_bytes(int64_t n, DType compute) {
  const int64_t isz = itemsize(compute);
  // Must match the layout in cpp/ops/eigen_kth.cu: the packed triangle and its vectors, 9
  // more vectors of n, 512 multisection points, alignment, the block reduction scratch, one
  // int (padded).
  return static_cast<size_t>((packed_tridiag_scratch_elements(n) + 9 * n + 512) * isz + 8 +
                             34 * 8 + 8);
}

bool kth_eigenpair_fits(int64_t n, DType compute, size_t smem_limit) {
  if (compute != DType::Float32 && compute != DType::Float64) return false;
  return n >= 1 && n <= 1024 && kth_eigenpair_smem_bytes(n, compute) <= smem_limit;
}

size_t own_vectors_smem_bytes(int64_t n, DType compute) {
  const int64_t isz = itemsize(compute);
  const int64_t ld = n | 1;
  // Must match the layout in cpp/ops/eigen_tridiag_vectors.cu: the packed lower triangle,
  // later Z (n x ld) in the same place; the Householder vector, p, tau, two (c, s) buffers;
  // rank and 4 control ints; alignment; d and e (at most double); alignment; the block
  // reduction scratch.
  int64_t bytes = (n * ld + 7 * n) * isz;
  bytes += (n + 4) * 4 + 8 + 2 * n * 8 + 8 + 34 * 8;
  return static_cast<size_t>(bytes);
}

int own_vectors_threads(int64_t n) {
  // Thread 0 runs the QL chain; the others own rows of Z (warps 1..) and columns in the
  // back-transform, so a block has >= n + 32 threads up to n = 224 (larger n loop). The
  // tridiagonalisation
  // uses one warp per row, as the eigenvalues-only kernel (own_kernel_threads) up to
  // n = 80. Not 512 for large n: 63 registers (float32) x 512 threads would allow only 2
  // blocks per SM where shared memory allows 4 (float32 n = 100: 45 KB).
  if (n <= 24) return 64;
  if (n <= 40) return 128;
  return 256;
}

bool jacobi_kernel_fits(int64_t n, DType compute, bool compute_v, size_t smem_limit) {
  if (!is_real_compute(compute)) return false;
  if (n < 1 || n > 256) return false;
  return own_kernel_smem_bytes(n, compute, compute_v) <= smem_limit;
}

bool own_kernel_fits(int64_t n, DType compute, bool compute_v, size_t smem_limit) {
  if (!is_real_compute(compute)) return false;
  if (n < 1 || n > 1024) return false;
  if (compute_v) return own_vectors_smem_bytes(n, compute) <= smem_limit;
  return own_values_smem_bytes(n, compute) <= smem_limit;
}

EigMethod choose_eigh_method(EigMethod requested, int64_t n, int64_t batch, DType compute,
                             bool compute_v, const EighAvailability& avail) {
  if (requested != EigMethod::Auto) {
    if (!available(requested, n, compute, compute_v, avail)) {
      std::string why;
      switch (requested) {
        case EigMethod::Own:
        case EigMethod::OwnJacobi:
          why = "the own kernel needs float32/float64 and n small enough for shared memory";
          break;
        case EigMethod::Syevj: why = "syevjBatched needs n <= 32"; break;
        case EigMethod::TridiagDC: why = "divide and conquer needs float64 and n <= 65535"; break;
        case EigMethod::XsyevBatched:
          why = "cusolverDnXsyevBatched is not in this cuSOLVER (needs >= 11.7.1)";
          break;
        default: why = "not available"; break;
      }
      throw ValueError(std::string("eigen method '") + eig_method_name(requested) +
                       "' cannot run here: " + why);
    }
    return requested;
  }
  const bool real = is_real_compute(compute);
  const RoutingThresholds& t = routing_thresholds_for(avail.compute_capability);
  for (size_t i = 0; i < t.eigh_rule_count; ++i) {
    const EighRule& r = t.eigh_rules[i];
    if (n > r.max_n || n < r.min_n || batch < r.min_batch || batch > r.max_batch) continue;
    if (r.real_only && !real) continue;
    if (r.values_only && compute_v) continue;
    if (r.vectors_only && !compute_v) continue;
    if (r.single_precision_only && compute != DType::Float32) continue;
    if (!available(r.method, n, compute, compute_v, avail)) continue;
    return r.method;
  }
  return EigMethod::Syevd;
}

}  // namespace gpuarr
