// The own blocked LU (cpp/ops/lu_blocked.cuh) against cuSOLVER Xgetrf, alone: GPU time of
// each (median of events around the call) and the correctness of ours (||P A - L U|| / ||A||
// in double on the host, info and det against cuSOLVER's on singular and NaN input).
// Build and run on the GPU machine, from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 -Icpp tools/probes/lu_blocked_probe.cu \
//        -lcublas -lcusolver -o /tmp/lu_probe && /tmp/lu_probe
#include <cusolverDn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

#include "ops/lu_blocked.cuh"

namespace gpuarr {
[[noreturn]] void throw_cuda_error(cudaError_t s, const char* call) {
  std::printf("CUDA error %s in %s\n", cudaGetErrorString(s), call);
  std::exit(1);
}
[[noreturn]] void throw_cublas_error(cublasStatus_t s, const char* call) {
  std::printf("cuBLAS error %d in %s\n", static_cast<int>(s), call);
  std::exit(1);
}
}  // namespace gpuarr

#define CK(x)                                                              \
  do {                                                                     \
    auto s_ = (x);                                                         \
    if ((int)s_ != 0) {                                                    \
      std::printf("fail %s: %d\n", #x, (int)s_);                           \
      std::exit(1);                                                        \
    }                                                                      \
  } while (0)

using namespace gpuarr;
cudaStream_t st;

float timed(const std::function<void()>& f, int reps) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  f();
  CK(cudaStreamSynchronize(st));
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    cudaEventRecord(a, st);
    f();
    cudaEventRecord(b, st);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class T>
cudaDataType cuda_t() { return std::is_same_v<T, float> ? CUDA_R_32F : CUDA_R_64F; }

// ||P A - L U||_max / ||A||_max with LAPACK's sequential interchanges.
template <class T>
double residual(const std::vector<T>& A, const std::vector<T>& LU, const std::vector<int64_t>& piv,
                int64_t n) {
  std::vector<double> pa(A.begin(), A.end());  // column-major
  for (int64_t j = 0; j < n; ++j) {
    const int64_t p = piv[j] - 1;
    if (p != j)
      for (int64_t c = 0; c < n; ++c) std::swap(pa[j + c * n], pa[p + c * n]);
  }
  double amax = 0, err = 0;
  for (double v : pa) amax = std::max(amax, std::fabs(v));
  for (int64_t c = 0; c < n; ++c) {
    for (int64_t r = 0; r < n; ++r) {
      double s = 0;
      const int64_t kmax = std::min(r, c);
      for (int64_t k = 0; k <= kmax; ++k) {
        const double l = (k == r) ? 1.0 : double(LU[r + k * n]);
        s += l * double(LU[k + c * n]);
      }
      err = std::max(err, std::fabs(s - pa[r + c * n]));
    }
  }
  return err / (amax > 0 ? amax : 1);
}

template <class T>
double logdet_and_sign(const std::vector<T>& LU, const std::vector<int64_t>& piv, int64_t n,
                       int& sign) {
  double lg = 0;
  sign = 1;
  for (int64_t j = 0; j < n; ++j) {
    const double d = LU[j + j * n];
    if (d < 0) sign = -sign;
    if (piv[j] != j + 1) sign = -sign;
    lg += std::log(std::fabs(d));
  }
  return lg;
}

template <class T>
void run(int64_t n, int kind, bool check, int reps, int outer = lu_blocked::PanelWidth<T>::value) {
  const char* kinds[] = {"random", "zero column", "nan"};
  const size_t bytes = n * n * sizeof(T);
  std::vector<T> h(n * n);
  std::mt19937_64 rng(n * 7 + kind);
  std::normal_distribution<double> nd;
  for (auto& v : h) v = T(nd(rng));
  if (kind == 1)
    for (int64_t r = 0; r < n; ++r) h[r + (n / 3) * n] = T(0);
  if (kind == 2) h[(n / 2) + (n / 5) * n] = T(NAN);
  T *A, *W;
  CK(cudaMalloc(&A, bytes));
  CK(cudaMalloc(&W, bytes));
  CK(cudaMemcpy(A, h.data(), bytes, cudaMemcpyHostToDevice));
  int64_t *piv_c, *piv_o;
  int *info, *moves;
  CK(cudaMalloc(&piv_c, n * 8));
  CK(cudaMalloc(&piv_o, n * 8));
  CK(cudaMalloc(&info, 64));
  CK(cudaMalloc(&moves, lu_blocked::moves_ints<T>() * sizeof(int)));
  static cublasHandle_t cb = nullptr;
  static cusolverDnHandle_t cs = nullptr;
  static cusolverDnParams_t prm = nullptr;
  if (!cb) {
    CK(cublasCreate(&cb));
    CK(cublasSetStream(cb, st));
    CK(cusolverDnCreate(&cs));
    CK(cusolverDnSetStream(cs, st));
    CK(cusolverDnCreateParams(&prm));
  }
  size_t db = 0, hb = 0;
  CK(cusolverDnXgetrf_bufferSize(cs, prm, n, n, cuda_t<T>(), W, n, cuda_t<T>(), &db, &hb));
  void *dws, *hws;
  CK(cudaMalloc(&dws, std::max<size_t>(db, 16)));
  CK(cudaMallocHost(&hws, std::max<size_t>(hb, 16)));
  auto cp = [&] { cudaMemcpyAsync(W, A, bytes, cudaMemcpyDeviceToDevice, st); };
  const float t_copy = timed(cp, reps);
  const float t_cus = timed([&] {
    cp();
    CK(cusolverDnXgetrf(cs, prm, n, n, cuda_t<T>(), W, n, piv_c, cuda_t<T>(), dws, db, hws, hb,
                        info));
  }, reps);
  // The factors, pivots and info on the host.
  auto fetch = [&](std::vector<T>& lu, std::vector<int64_t>& p, int& inf, const int64_t* piv) {
    lu.resize(n * n);
    p.resize(n);
    CK(cudaMemcpy(lu.data(), W, bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(p.data(), piv, n * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&inf, info, 4, cudaMemcpyDeviceToHost));
  };
  std::vector<T> lu_c, lu_o;
  std::vector<int64_t> pc, po;
  int info_c = 0, info_o = 0;
  fetch(lu_c, pc, info_c, piv_c);
  const float t_own = timed([&] {
    cp();
    lu_blocked::factor<T>(W, n, piv_o, info, moves, true, outer, cb, st);
  }, reps);
  const float t_own_det = timed([&] {
    cp();
    lu_blocked::factor<T>(W, n, piv_o, info, moves, false, outer, cb, st);
  }, reps);
  cp();
  lu_blocked::factor<T>(W, n, piv_o, info, moves, true, outer, cb, st);
  CK(cudaStreamSynchronize(st));
  fetch(lu_o, po, info_o, piv_o);
  int same_piv = 0;
  for (int64_t j = 0; j < n; ++j) same_piv += pc[j] == po[j];
  int sc, so;
  const double lc = logdet_and_sign(lu_c, pc, n, sc), lo = logdet_and_sign(lu_o, po, n, so);
  std::printf("%s n=%5lld %-11s | ms: copy %.3f, cuSOLVER %.3f (net %.3f), own %.3f (net %.3f), "
              "own no-left-swap %.3f (outer %d) | info %d/%d, pivots equal %d/%lld, logdet %.6g/%.6g sign %d/%d",
              sizeof(T) == 4 ? "f32" : "f64", (long long)n, kinds[kind], t_copy, t_cus,
              t_cus - t_copy, t_own, t_own - t_copy, t_own_det - t_copy, outer, info_c, info_o, same_piv,
              (long long)n, lc, lo, sc, so);
  if (check) {
    std::printf(" | resid own %.2e cuSOLVER %.2e", residual(h, lu_o, po, n),
                residual(h, lu_c, pc, n));
  }
  std::printf("\n");
  cudaFree(A);
  cudaFree(W);
  cudaFree(piv_c);
  cudaFree(piv_o);
  cudaFree(info);
  cudaFree(moves);
  cudaFree(dws);
  cudaFreeHost(hws);
}

// One step at k = 0 (m = n rows), each part timed alone: where a panel's time goes.
template <class T>
void breakdown(int64_t n) {
  constexpr int B = lu_blocked::PanelWidth<T>::value;
  const size_t bytes = n * n * sizeof(T);
  std::vector<T> h(n * n);
  std::mt19937_64 rng(n);
  std::normal_distribution<double> nd;
  for (auto& v : h) v = T(nd(rng));
  T* W;
  int64_t* piv;
  int *info, *moves;
  CK(cudaMalloc(&W, bytes));
  CK(cudaMalloc(&piv, n * 8));
  CK(cudaMalloc(&info, 64));
  CK(cudaMalloc(&moves, lu_blocked::moves_ints<T>() * sizeof(int)));
  CK(cudaMemcpy(W, h.data(), bytes, cudaMemcpyHostToDevice));
  CK(cudaMemset(info, 0, 4));
  cublasHandle_t cb;
  CK(cublasCreate(&cb));
  CK(cublasSetStream(cb, st));
  const int m = static_cast<int>(n), blocks = (m + 511) / 512;
  auto panel = [&] { lu_blocked::launch_panel<T>(W, n, m, B, 0, piv, info, moves, st); };
  const int64_t rest = n - B;
  auto mv = [&] {
    lu_blocked::apply_moves_kernel<T><<<(rest + 31) / 32, dim3(32, 8), 0, st>>>(W, n, 0, 0, B, n, moves);
  };
  auto trsm = [&] { CK(trsm_left(cb, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_UNIT, B, rest, W, n, W + B * n, n)); };
  auto gemm = [&] { CK(lu_blocked::gemm_minus(cb, rest, rest, B, W + B, W + B * n, W + B + B * n, n)); };
  const float tp = timed(panel, 11), tm = timed(mv, 11), tt = timed(trsm, 11), tg = timed(gemm, 11);
  const float tall = timed([&] { panel(); mv(); trsm(); gemm(); }, 11);
  std::printf("%s n=%5lld step at k=0 (%d blocks): panel %.1f us (%.2f us/column), moves %.1f, "
              "trsm %.1f, gemm %.1f, all four %.1f us\n", sizeof(T) == 4 ? "f32" : "f64",
              (long long)n, blocks, tp * 1e3, tp * 1e3 / B, tm * 1e3, tt * 1e3, tg * 1e3, tall * 1e3);
  cudaFree(W);
  cudaFree(piv);
  cudaFree(info);
  cudaFree(moves);
  cublasDestroy(cb);
}

int main(int argc, char** argv) {
  CK(cudaStreamCreate(&st));
  const int maxf = lu_blocked::configure_panel_kernel<float>();
  const int maxd = lu_blocked::configure_panel_kernel<double>();
  std::printf("max n: float %d, double %d\n", maxf, maxd);
  if (argc > 1) {
    for (int64_t n : {64, 256, 512, 1024, 2048, 4096, 6000, 8192}) breakdown<float>(n);
    for (int64_t n : {512, 6000}) breakdown<double>(n);
    return 0;
  }
  for (int64_t n : {1, 2, 3, 31, 64, 65, 100, 300, 511, 512, 513, 1000})
    run<float>(n, 0, true, 5);
  for (int64_t n : {1, 33, 100, 513, 1000}) run<double>(n, 0, true, 5);
  for (int kind : {1, 2}) {
    run<float>(300, kind, false, 3);
    run<double>(700, kind, false, 3);
  }
  for (int64_t n : {128, 256, 512, 1024, 2048, 4096, 6000, 8192})
    for (int outer : {64, 128, 256, 512}) run<float>(n, 0, false, n > 3000 ? 5 : 21, outer);
  for (int64_t n : {512, 2048, 6000})
    for (int outer : {32, 128, 256}) run<double>(n, 0, false, 5, outer);
  run<float>(1000, 0, true, 3, 256);
  run<double>(1000, 0, true, 3, 128);
  run<float>(700, 1, false, 3, 256);
  run<float>(700, 2, false, 3, 256);
  return 0;
}
