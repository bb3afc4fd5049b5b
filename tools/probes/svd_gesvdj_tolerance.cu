// One matrix's SVD (thin U and V, as numpy.linalg.svd(full_matrices=False)): cuSOLVER's
// gesvd against gesvdj at its default tolerance and at tighter ones (tools/probes/
// probe_svd_drivers.py found gesvdj 2.5x faster than gesvd at 512^2 float32 but one to two
// digits less accurate at its default). Per case: median GPU time (the copy of A that both
// overwrite included), the sweeps gesvdj ran, its residual, and for n <= 512 the
// reconstruction error ||U S V^T - A||_F / ||A||_F computed on the host in double.
// Gaussian-like matrices and ones with singular values spread over 1 .. 1e-6 (scaled rows).
// Build and run on the GPU machine, from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 tools/probes/svd_gesvdj_tolerance.cu -lcusolver \
//        -o /tmp/svd_tol && /tmp/svd_tol
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include <cusolverDn.h>

#include "probe_timing.cuh"

// The typed gesvd / gesvdj entry points of T (float or double).
template <class T> struct Api {
  static constexpr bool f32 = std::is_same_v<T, float>;
  static constexpr const char* name = f32 ? "float32" : "float64";
  static cusolverStatus_t gesvd_size(cusolverDnHandle_t h, int m, int n, int* lw) {
    if constexpr (f32) return cusolverDnSgesvd_bufferSize(h, m, n, lw);
    else return cusolverDnDgesvd_bufferSize(h, m, n, lw);
  }
  static cusolverStatus_t gesvd(cusolverDnHandle_t h, int m, int n, T* a, T* s, T* u, T* vt,
                                T* w, int lw, int* info) {
    if constexpr (f32) return cusolverDnSgesvd(h, 'S', 'S', m, n, a, m, s, u, m, vt, n, w, lw, nullptr, info);
    else return cusolverDnDgesvd(h, 'S', 'S', m, n, a, m, s, u, m, vt, n, w, lw, nullptr, info);
  }
  static cusolverStatus_t gesvdj_size(cusolverDnHandle_t h, int m, int n, T* a, T* s, T* u,
                                      T* v, int* lw, gesvdjInfo_t p) {
    const auto mode = CUSOLVER_EIG_MODE_VECTOR;
    if constexpr (f32) return cusolverDnSgesvdj_bufferSize(h, mode, 1, m, n, a, m, s, u, m, v, n, lw, p);
    else return cusolverDnDgesvdj_bufferSize(h, mode, 1, m, n, a, m, s, u, m, v, n, lw, p);
  }
  static cusolverStatus_t gesvdj(cusolverDnHandle_t h, int m, int n, T* a, T* s, T* u, T* v,
                                 T* w, int lw, int* info, gesvdjInfo_t p) {
    const auto mode = CUSOLVER_EIG_MODE_VECTOR;
    if constexpr (f32) return cusolverDnSgesvdj(h, mode, 1, m, n, a, m, s, u, m, v, n, w, lw, info, p);
    else return cusolverDnDgesvdj(h, mode, 1, m, n, a, m, s, u, m, v, n, w, lw, info, p);
  }
};

// ||U diag(S) W - A||_F / ||A||_F in double; column-major A (m x n), U (m x n); W is V^T
// (n x n, leading dim n) when `w_is_vt`, else V (n x n).
template <class T>
double reconstruction_error(const std::vector<T>& a, const std::vector<T>& u,
                            const std::vector<T>& s, const std::vector<T>& w, int m, int n,
                            bool w_is_vt) {
  double num = 0, den = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double x = 0;
      for (int k = 0; k < n; ++k) {
        const double vt_kj = w_is_vt ? double(w[k + size_t(j) * n]) : double(w[j + size_t(k) * n]);
        x += double(u[i + size_t(k) * m]) * double(s[k]) * vt_kj;
      }
      const double aij = a[i + size_t(j) * m];
      num += (x - aij) * (x - aij);
      den += aij * aij;
    }
  return std::sqrt(num / den);
}

template <class T>
void run(int m, int n, bool graded, cusolverDnHandle_t h) {
  std::vector<T> host(size_t(m) * n);
  uint64_t state = 0x9E3779B97F4A7C15ull + m * 31 + n;
  for (size_t i = 0; i < host.size(); ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    host[i] = T(double(state >> 11) / double(1ull << 53) * 2 - 1);
  }
  if (graded)  // row i scaled by 1e-6^(i / (m - 1)): singular values spread over six decades
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) host[i + size_t(j) * m] *= T(std::pow(1e-6, double(i) / (m - 1)));
  T *a0, *a, *s, *u, *v, *w;
  int* info;
  CK(cudaMalloc(&a0, host.size() * sizeof(T)));
  CK(cudaMalloc(&a, host.size() * sizeof(T)));
  CK(cudaMalloc(&s, n * sizeof(T)));
  CK(cudaMalloc(&u, size_t(m) * n * sizeof(T)));
  CK(cudaMalloc(&v, size_t(n) * n * sizeof(T)));
  CK(cudaMalloc(&info, sizeof(int)));
  CK(cudaMemcpy(a0, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  const bool check = n <= 512;
  auto copy_a = [&] {
    CK(cudaMemcpyAsync(a, a0, host.size() * sizeof(T), cudaMemcpyDeviceToDevice, st));
  };
  auto fetch = [&](T* d, size_t count) {
    std::vector<T> out(count);
    CK(cudaMemcpy(out.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost));
    return out;
  };
  printf("%s %dx%d%s:", Api<T>::name, m, n, graded ? " graded" : "");
  // gesvd: U m x n, VT n x n.
  int lw = 0;
  CK(Api<T>::gesvd_size(h, m, n, &lw));
  CK(cudaMalloc(&w, size_t(lw) * sizeof(T)));
  const float t_gesvd = timed([&] { copy_a(); CK(Api<T>::gesvd(h, m, n, a, s, u, v, w, lw, info)); }, 3);
  const std::vector<T> s_ref = fetch(s, n);
  printf(" gesvd %.2f ms", t_gesvd);
  if (check)
    printf(" (err %.1e)", reconstruction_error(host, fetch(u, size_t(m) * n), s_ref,
                                               fetch(v, size_t(n) * n), m, n, true));
  CK(cudaFree(w));
  const double eps = std::numeric_limits<T>::epsilon();
  for (double tol : {0.0, 10 * eps, eps}) {
    gesvdjInfo_t p;
    CK(cusolverDnCreateGesvdjInfo(&p));
    if (tol > 0) CK(cusolverDnXgesvdjSetTolerance(p, tol));
    CK(cusolverDnXgesvdjSetMaxSweeps(p, 100));
    CK(Api<T>::gesvdj_size(h, m, n, a, s, u, v, &lw, p));
    CK(cudaMalloc(&w, size_t(lw) * sizeof(T)));
    const float t = timed([&] { copy_a(); CK(Api<T>::gesvdj(h, m, n, a, s, u, v, w, lw, info, p)); }, 3);
    int sweeps = 0;
    double residual = 0;
    CK(cusolverDnXgesvdjGetSweeps(h, p, &sweeps));
    CK(cusolverDnXgesvdjGetResidual(h, p, &residual));
    const std::vector<T> sv = fetch(s, n);
    double ds = 0;  // the largest singular-value difference from gesvd's, relative to s_max
    for (int k = 0; k < n; ++k) ds = std::max(ds, std::abs(double(sv[k]) - double(s_ref[k])));
    printf(" | gesvdj tol %s %.2f ms, %d sweeps, residual %.1e, |ds|/s0 %.1e", tol == 0 ? "default" : (tol > eps ? "10eps" : "eps"),
           t, sweeps, residual, ds / double(s_ref[0]));
    if (check)
      printf(" (err %.1e)", reconstruction_error(host, fetch(u, size_t(m) * n), sv,
                                                 fetch(v, size_t(n) * n), m, n, false));
    CK(cudaFree(w));
    CK(cusolverDnDestroyGesvdjInfo(p));
  }
  printf("\n");
  CK(cudaFree(a0)); CK(cudaFree(a)); CK(cudaFree(s)); CK(cudaFree(u)); CK(cudaFree(v));
  CK(cudaFree(info));
}

int main() {
  CK(cudaStreamCreate(&st));
  cusolverDnHandle_t h;
  CK(cusolverDnCreate(&h));
  CK(cusolverDnSetStream(h, st));
  run<float>(512, 512, false, h);
  run<float>(512, 512, true, h);
  run<float>(512, 256, false, h);
  run<double>(512, 512, false, h);
  run<double>(512, 512, true, h);
  run<float>(2048, 2048, false, h);
  run<double>(2048, 2048, false, h);
  CK(cudaGetLastError());
}
