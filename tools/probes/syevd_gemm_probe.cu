// Floors on cuSOLVER/cuBLAS alone:
//  A. Xsyevd 4096 float64 (vectors, 'L'): deterministic vs non-deterministic mode, Dsytrd alone.
//  B. The distance-matrix GEMM, 10000 x 10000 x 784 float32 (row-major C = Q P^T):
//     cublasSgemm against every cublasLt heuristic candidate.
//  G. (argument g) What Dsytrd's time is made of: cublasDsymv on trailing sizes (the
//     reduction's memory-bound half), and Xsyevd captured in a CUDA graph and replayed (does
//     launch latency between its many small kernels cost anything?).
// Build and run on the GPU machine:
//   nvcc -O2 -arch=sm_90 -std=c++20 syevd_gemm_probe.cu -lcublas -lcublasLt -lcusolver -lcurand
#include <cstdio>
#include <cmath>
#include <vector>
#include <algorithm>
#include <functional>
#include <chrono>
#include <cublas_v2.h>
#include <cublasLt.h>
#include <cusolverDn.h>
#include <curand.h>
#include "probe_timing.cuh"
__global__ void symmetrize(double* a, int64_t n) {
  int64_t i = blockIdx.y, j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (j < i && i < n) a[j * n + i] = a[i * n + j];
}
int main(int argc, char** argv) {
  bool do_a = argc < 2 || argv[1][0] == 'a' || argv[1][0] == 'x';
  bool do_b = argc < 2 || argv[1][0] == 'b' || argv[1][0] == 'x';
  bool do_g = argc >= 2 && argv[1][0] == 'g';
  cudaStreamCreate(&st);
  cublasHandle_t cb; CK(cublasCreate(&cb)); cublasSetStream(cb, st);
  curandGenerator_t g; curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT); curandSetStream(g, st);
  if (do_a) {
    cusolverDnHandle_t cs; CK(cusolverDnCreate(&cs)); cusolverDnSetStream(cs, st);
    cusolverDnParams_t prm; CK(cusolverDnCreateParams(&prm));
    const int64_t n = 4096; const size_t bytes = n * n * 8;
    double *A, *W, *w0, *w1; cudaMalloc(&A, bytes); cudaMalloc(&W, bytes); cudaMalloc(&w0, n * 8); cudaMalloc(&w1, n * 8);
    curandGenerateNormalDouble(g, A, n * n, 0, 1);
    symmetrize<<<dim3((n + 255) / 256, n), 256, 0, st>>>(A, n);
    int* info; cudaMalloc(&info, 64);
    auto cp = [&] { cudaMemcpyAsync(W, A, bytes, cudaMemcpyDeviceToDevice, st); };
    printf("A copy 134 MB %.3f ms\n", timed(cp, 5));
    for (auto jobz : {CUSOLVER_EIG_MODE_VECTOR, CUSOLVER_EIG_MODE_NOVECTOR}) {
      for (int mode : {1, 2, 1, 2}) {
        CK(cusolverDnSetDeterministicMode(cs, (cusolverDeterministicMode_t)mode));
        size_t db = 0, hb = 0;
        CK(cusolverDnXsyevd_bufferSize(cs, prm, jobz, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F, W, n, CUDA_R_64F, w0, CUDA_R_64F, &db, &hb));
        void *dws, *hws; cudaMalloc(&dws, db); cudaMallocHost(&hws, std::max<size_t>(hb, 1));
        double* wout = mode == 1 ? w0 : w1;
        float ms = timed([&] { cp(); CK(cusolverDnXsyevd(cs, prm, jobz, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F, W, n, CUDA_R_64F, wout, CUDA_R_64F, dws, db, hws, hb, info)); }, 5);
        int hinfo = -1; cudaMemcpy(&hinfo, info, 4, cudaMemcpyDeviceToHost);
        printf("A Xsyevd jobz=%d mode=%s copy+solve %.3f ms (ws %zu MB) info %d\n", (int)jobz, mode == 1 ? "deterministic" : "non-deterministic", ms, db >> 20, hinfo);
        cudaFree(dws); cudaFreeHost(hws);
      }
      std::vector<double> h0(n), h1(n);
      cudaMemcpy(h0.data(), w0, n * 8, cudaMemcpyDeviceToHost); cudaMemcpy(h1.data(), w1, n * 8, cudaMemcpyDeviceToHost);
      double d = 0, m = 0; for (int64_t i = 0; i < n; ++i) { d = std::max(d, std::fabs(h0[i] - h1[i])); m = std::max(m, std::fabs(h0[i])); }
      printf("A jobz=%d eigenvalues det vs non-det: max diff %.3e (max |w| %.3e)\n", (int)jobz, d, m);
    }
    {  // orthogonality of the non-deterministic vectors
      CK(cusolverDnSetDeterministicMode(cs, CUSOLVER_ALLOW_NON_DETERMINISTIC_RESULTS));
      size_t db = 0, hb = 0;
      CK(cusolverDnXsyevd_bufferSize(cs, prm, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F, W, n, CUDA_R_64F, w1, CUDA_R_64F, &db, &hb));
      void *dws, *hws; cudaMalloc(&dws, db); cudaMallocHost(&hws, std::max<size_t>(hb, 1));
      cp(); CK(cusolverDnXsyevd(cs, prm, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F, W, n, CUDA_R_64F, w1, CUDA_R_64F, dws, db, hws, hb, info));
      double *G; cudaMalloc(&G, bytes); double one = 1, zero = 0;
      CK(cublasDgemm(cb, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &one, W, n, W, n, &zero, G, n));
      std::vector<double> hg(n * n); cudaMemcpy(hg.data(), G, bytes, cudaMemcpyDeviceToHost);
      double e = 0; for (int64_t i = 0; i < n; ++i) for (int64_t j = 0; j < n; ++j) e = std::max(e, std::fabs(hg[i * n + j] - (i == j)));
      // residual A V - V diag(w)
      CK(cublasDgemm(cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, W, n, &zero, G, n));
      std::vector<double> hv(n * n), hw(n); cudaMemcpy(hv.data(), W, bytes, cudaMemcpyDeviceToHost); cudaMemcpy(hg.data(), G, bytes, cudaMemcpyDeviceToHost);
      cudaMemcpy(hw.data(), w1, n * 8, cudaMemcpyDeviceToHost);
      double r = 0; for (int64_t j = 0; j < n; ++j) for (int64_t i = 0; i < n; ++i) r = std::max(r, std::fabs(hg[j * n + i] - hv[j * n + i] * hw[j]));
      printf("A non-det vectors: max |V^T V - I| %.3e, max |A V - V w| %.3e\n", e, r);
      cudaFree(G); cudaFree(dws); cudaFreeHost(hws);
      CK(cusolverDnSetDeterministicMode(cs, CUSOLVER_DETERMINISTIC_RESULTS));
    }
    {  // fill mode: the same symmetric matrix read from its upper triangle
      CK(cusolverDnSetDeterministicMode(cs, CUSOLVER_DETERMINISTIC_RESULTS));
      for (auto uplo : {CUBLAS_FILL_MODE_UPPER, CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER}) {
        size_t db = 0, hb = 0;
        CK(cusolverDnXsyevd_bufferSize(cs, prm, CUSOLVER_EIG_MODE_VECTOR, uplo, n, CUDA_R_64F, W, n, CUDA_R_64F, w1, CUDA_R_64F, &db, &hb));
        void *dws, *hws; cudaMalloc(&dws, db); cudaMallocHost(&hws, std::max<size_t>(hb, 1));
        printf("A Xsyevd vectors uplo=%s %.3f ms\n", uplo == CUBLAS_FILL_MODE_UPPER ? "U" : "L", timed([&] { cp(); CK(cusolverDnXsyevd(cs, prm, CUSOLVER_EIG_MODE_VECTOR, uplo, n, CUDA_R_64F, W, n, CUDA_R_64F, w1, CUDA_R_64F, dws, db, hws, hb, info)); }, 3));
        cudaFree(dws); cudaFreeHost(hws);
        int lwork = 0;
        CK(cusolverDnDsyevd_bufferSize(cs, CUSOLVER_EIG_MODE_VECTOR, uplo, n, W, n, w1, &lwork));
        double* lw; cudaMalloc(&lw, size_t(lwork) * 8);
        printf("A legacy Dsyevd vectors uplo=%s %.3f ms\n", uplo == CUBLAS_FILL_MODE_UPPER ? "U" : "L", timed([&] { cp(); CK(cusolverDnDsyevd(cs, CUSOLVER_EIG_MODE_VECTOR, uplo, n, W, n, w1, lw, lwork, info)); }, 3));
        cudaFree(lw);
      }
      int lwork = 0; double *d, *e, *tau; cudaMalloc(&d, n * 8); cudaMalloc(&e, n * 8); cudaMalloc(&tau, n * 8);
      CK(cusolverDnDsytrd_bufferSize(cs, CUBLAS_FILL_MODE_UPPER, n, W, n, d, e, tau, &lwork));
      double* ws; cudaMalloc(&ws, size_t(lwork) * 8);
      printf("A copy+Dsytrd U %.3f ms\n", timed([&] { cp(); CK(cusolverDnDsytrd(cs, CUBLAS_FILL_MODE_UPPER, n, W, n, d, e, tau, ws, lwork, info)); }, 3));
      for (int64_t nn : {1024, 2048}) {
        CK(cusolverDnDsytrd_bufferSize(cs, CUBLAS_FILL_MODE_LOWER, nn, W, nn, d, e, tau, &lwork));
        double* ws2; cudaMalloc(&ws2, size_t(lwork) * 8);
        printf("A Dsytrd L n=%lld %.3f ms\n", (long long)nn, timed([&] { cudaMemcpyAsync(W, A, nn * nn * 8, cudaMemcpyDeviceToDevice, st); CK(cusolverDnDsytrd(cs, CUBLAS_FILL_MODE_LOWER, nn, W, nn, d, e, tau, ws2, lwork, info)); }, 3));
        cudaFree(ws2);
      }
    }
    {  // the tridiagonal reduction alone
      int lwork = 0; double *d, *e, *tau; cudaMalloc(&d, n * 8); cudaMalloc(&e, n * 8); cudaMalloc(&tau, n * 8);
      CK(cusolverDnDsytrd_bufferSize(cs, CUBLAS_FILL_MODE_LOWER, n, W, n, d, e, tau, &lwork));
      double* ws; cudaMalloc(&ws, size_t(lwork) * 8);
      for (int mode : {1, 2}) {
        CK(cusolverDnSetDeterministicMode(cs, (cusolverDeterministicMode_t)mode));
        printf("A copy+Dsytrd mode %d %.3f ms\n", mode, timed([&] { cp(); CK(cusolverDnDsytrd(cs, CUBLAS_FILL_MODE_LOWER, n, W, n, d, e, tau, ws, lwork, info)); }, 3));
      }
    }
    cudaFree(A); cudaFree(W);
  }
  if (do_g) {
    cusolverDnHandle_t cs; CK(cusolverDnCreate(&cs)); cusolverDnSetStream(cs, st);
    cusolverDnParams_t prm; CK(cusolverDnCreateParams(&prm));
    const int64_t n = 4096; const size_t bytes = n * n * 8;
    double *A, *W, *w, *x, *y; cudaMalloc(&A, bytes); cudaMalloc(&W, bytes); cudaMalloc(&w, n * 8);
    cudaMalloc(&x, n * 8); cudaMalloc(&y, n * 8);
    curandGenerateNormalDouble(g, A, n * n, 0, 1);
    symmetrize<<<dim3((n + 255) / 256, n), 256, 0, st>>>(A, n);
    curandGenerateNormalDouble(g, x, n, 0, 1);
    double one = 1, zero = 0;
    for (int64_t m : {4096, 2048, 1024, 512}) {
      float ms = timed([&] { CK(cublasDsymv(cb, CUBLAS_FILL_MODE_LOWER, m, &one, A, n, x, 1, &zero, y, 1)); }, 21);
      float gv = timed([&] { CK(cublasDgemv(cb, CUBLAS_OP_N, m, m, &one, A, n, x, 1, &zero, y, 1)); }, 21);
      printf("G symv L m=%lld %.1f us (%.0f GB/s on the lower half), gemv %.1f us (%.0f GB/s)\n", (long long)m,
             ms * 1e3, m * (m + 1) / 2 * 8.0 / (ms * 1e6), gv * 1e3, m * m * 8.0 / (gv * 1e6));
    }
    int* info; cudaMalloc(&info, 64);
    size_t db = 0, hb = 0;
    CK(cusolverDnXsyevd_bufferSize(cs, prm, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F, W, n, CUDA_R_64F, w, CUDA_R_64F, &db, &hb));
    void *dws, *hws; cudaMalloc(&dws, db); cudaMallocHost(&hws, std::max<size_t>(hb, 1));
    auto solve = [&] {
      cudaMemcpyAsync(W, A, bytes, cudaMemcpyDeviceToDevice, st);
      CK(cusolverDnXsyevd(cs, prm, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F, W, n, CUDA_R_64F, w, CUDA_R_64F, dws, db, hws, hb, info));
    };
    printf("G Xsyevd 4096 f64 direct %.3f ms\n", timed(solve, 5));
    // Host time against GPU time: enqueue time close to the whole means the host paces it.
    auto host_split = [&](const char* what, const std::function<void()>& f) {
      f(); cudaStreamSynchronize(st);
      auto t0 = std::chrono::steady_clock::now();
      f();
      auto t1 = std::chrono::steady_clock::now();
      cudaStreamSynchronize(st);
      auto t2 = std::chrono::steady_clock::now();
      printf("G %s: host enqueue %.3f ms, then wait %.3f ms\n", what,
             std::chrono::duration<double, std::milli>(t1 - t0).count(),
             std::chrono::duration<double, std::milli>(t2 - t1).count());
    };
    auto try_graph = [&](const char* what, const std::function<void()>& f) {
      cudaGraph_t graph; cudaGraphExec_t exec;
      cudaStreamSynchronize(st);
      cudaError_t e = cudaStreamBeginCapture(st, cudaStreamCaptureModeRelaxed);
      if (e == cudaSuccess) {
        f();
        e = cudaStreamEndCapture(st, &graph);
      }
      if (e != cudaSuccess) {
        printf("G %s: capture failed: %s\n", what, cudaGetErrorString(e));
        cudaGetLastError();
        return;
      }
      size_t nodes = 0; cudaGraphGetNodes(graph, nullptr, &nodes);
      auto i0 = std::chrono::steady_clock::now();
      CK(cudaGraphInstantiate(&exec, graph, 0));
      auto i1 = std::chrono::steady_clock::now();
      printf("G %s graph: %zu nodes, instantiate %.1f ms, replay %.3f ms\n", what, nodes,
             std::chrono::duration<double, std::milli>(i1 - i0).count(),
             timed([&] { CK(cudaGraphLaunch(exec, st)); }, 5));
      cudaGraphExecDestroy(exec); cudaGraphDestroy(graph);
    };
    {
      int lwork = 0; double *d, *e, *tau; cudaMalloc(&d, n * 8); cudaMalloc(&e, n * 8); cudaMalloc(&tau, n * 8);
      CK(cusolverDnDsytrd_bufferSize(cs, CUBLAS_FILL_MODE_LOWER, n, W, n, d, e, tau, &lwork));
      double* ws; cudaMalloc(&ws, size_t(lwork) * 8);
      auto trd = [&] {
        cudaMemcpyAsync(W, A, bytes, cudaMemcpyDeviceToDevice, st);
        CK(cusolverDnDsytrd(cs, CUBLAS_FILL_MODE_LOWER, n, W, n, d, e, tau, ws, lwork, info));
      };
      printf("G copy+Dsytrd direct %.3f ms\n", timed(trd, 3));
      host_split("copy+Dsytrd", trd);
      try_graph("copy+Dsytrd", trd);
      for (int64_t m : {64, 512}) {
        printf("G symv L m=%lld x 1000 back to back: %.2f us each\n", (long long)m, timed([&] {
          for (int i = 0; i < 1000; ++i) CK(cublasDsymv(cb, CUBLAS_FILL_MODE_LOWER, m, &one, A, n, x, 1, &zero, y, 1)); }, 3));
      }
    }
    host_split("copy+Xsyevd", solve);
    try_graph("copy+Xsyevd", solve);
    {  // Jacobi for comparison
      syevjInfo_t params; CK(cusolverDnCreateSyevjInfo(&params));
      int lwork = 0;
      CK(cusolverDnDsyevj_bufferSize(cs, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, W, n, w, &lwork, params));
      double* ws; cudaMalloc(&ws, size_t(lwork) * 8);
      auto jac = [&] {
        cudaMemcpyAsync(W, A, bytes, cudaMemcpyDeviceToDevice, st);
        CK(cusolverDnDsyevj(cs, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, W, n, w, ws, lwork, info, params));
      };
      printf("G copy+Dsyevj 4096 %.3f ms\n", timed(jac, 1));
      int sweeps = 0; double res = 0;
      cusolverDnXsyevjGetSweeps(cs, params, &sweeps); cusolverDnXsyevjGetResidual(cs, params, &res);
      printf("G syevj sweeps %d residual %.3e\n", sweeps, res);
    }
  }
  if (do_b) {
    const int64_t m = 10000, nn = 10000, k = 784;
    float *Q, *P, *C; cudaMalloc(&Q, m * 800 * 4); cudaMalloc(&P, nn * 800 * 4); cudaMalloc(&C, m * nn * 4);
    curandGenerateUniform(g, Q, m * 800); curandGenerateUniform(g, P, nn * 800);
    float one = 1, zero = 0;
    float* C2; cudaMalloc(&C2, m * nn * 4);
    printf("B D2D copy of the 400 MB result %.3f ms\n", timed([&] { cudaMemcpyAsync(C2, C, m * nn * 4, cudaMemcpyDeviceToDevice, st); }, 11));
    for (int kk : {784, 786, 800}) {
      printf("B cublasSgemm TN k=%d %.3f ms\n", kk, timed([&] { CK(cublasSgemm(cb, CUBLAS_OP_T, CUBLAS_OP_N, nn, m, kk, &one, P, kk, Q, kk, &zero, C, nn)); }, 11));
    }
    printf("B cublasSgemm TN k=784 beta=1 %.3f ms\n", timed([&] { CK(cublasSgemm(cb, CUBLAS_OP_T, CUBLAS_OP_N, nn, m, k, &one, P, k, Q, k, &one, C, nn)); }, 11));
    cublasLtHandle_t lt; CK(cublasLtCreate(&lt));
    cublasLtMatmulDesc_t desc; CK(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    cublasOperation_t tA = CUBLAS_OP_T, tB = CUBLAS_OP_N;
    CK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &tA, sizeof tA));
    CK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &tB, sizeof tB));
    cublasLtMatrixLayout_t la, lb, lc;
    CK(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, k, nn, k));
    CK(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, k, m, k));
    CK(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, nn, m, nn));
    cublasLtMatmulPreference_t pref; CK(cublasLtMatmulPreferenceCreate(&pref));
    size_t wsb = 64 << 20; void* ws; cudaMalloc(&ws, wsb);
    CK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsb, sizeof wsb));
    cublasLtMatmulHeuristicResult_t res[32]; int got = 0;
    CK(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, lc, pref, 32, res, &got));
    for (int i = 0; i < got; ++i) {
      int tile = -1, stages = -1, splitk = -1, algo_id = -1;
      size_t sz;
      cublasLtMatmulAlgoConfigGetAttribute(&res[i].algo, CUBLASLT_ALGO_CONFIG_ID, &algo_id, sizeof algo_id, &sz);
      cublasLtMatmulAlgoConfigGetAttribute(&res[i].algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile, &sz);
      cublasLtMatmulAlgoConfigGetAttribute(&res[i].algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof stages, &sz);
      cublasLtMatmulAlgoConfigGetAttribute(&res[i].algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitk, sizeof splitk, &sz);
      float ms = timed([&] { CK(cublasLtMatmul(lt, desc, &one, P, la, Q, lb, &zero, C, lc, C, lc, &res[i].algo, ws, wsb, st)); }, 7);
      printf("B cublasLt heuristic %d: algo %d tile %d stages %d splitk %d ws %zu: %.3f ms\n", i, algo_id, tile, stages, splitk, res[i].workspaceSize, ms);
    }
    // The other orientation: C^T = Q P^T with opA = T on Q.
    printf("B cublasSgemm TN swapped %.3f ms\n", timed([&] { CK(cublasSgemm(cb, CUBLAS_OP_T, CUBLAS_OP_N, m, nn, k, &one, Q, k, P, k, &zero, C, m)); }, 11));
  }
  printf("done\n");
  return 0;
}
