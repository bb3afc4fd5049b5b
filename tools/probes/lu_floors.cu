// Floors of an LU-based inverse (n = 6000) and det (n = 512), float32, on cuSOLVER/cuBLAS alone.
// Build and run on the GPU machine: nvcc -O2 -arch=sm_90 -std=c++20 lu_floors.cu -lcublas -lcusolver -lcurand
#include <cstdio>
#include <vector>
#include <algorithm>
#include <functional>
#include <cublas_v2.h>
#include <cusolverDn.h>
#include <curand.h>
#include "probe_timing.cuh"
int main() {
  cudaStreamCreate(&st);
  cublasHandle_t cb; CK(cublasCreate(&cb)); cublasSetStream(cb, st);
  cusolverDnHandle_t cs; CK(cusolverDnCreate(&cs)); cusolverDnSetStream(cs, st);
  cusolverDnParams_t prm; CK(cusolverDnCreateParams(&prm));
  curandGenerator_t g; curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT); curandSetStream(g, st);
  for (int64_t n : {512, 6000}) {
    int reps = n < 1000 ? 41 : 5;
    size_t bytes = n * n * 4;
    float *A, *W, *B, *C; cudaMalloc(&A, bytes); cudaMalloc(&W, bytes); cudaMalloc(&B, bytes); cudaMalloc(&C, bytes);
    curandGenerateUniform(g, A, n * n); curandGenerateUniform(g, B, n * n);
    int64_t* piv; int* ipiv; int* info; cudaMalloc(&piv, n * 8); cudaMalloc(&ipiv, n * 4); cudaMalloc(&info, 64);
    size_t db = 0, hb = 0; void *dws, *hws;
    CK(cusolverDnXgetrf_bufferSize(cs, prm, n, n, CUDA_R_32F, W, n, CUDA_R_32F, &db, &hb));
    cudaMalloc(&dws, std::max<size_t>(db, 1 << 26)); cudaMallocHost(&hws, std::max<size_t>(hb, 1 << 20));
    auto cp = [&] { cudaMemcpyAsync(W, A, bytes, cudaMemcpyDeviceToDevice, st); };
    printf("n=%lld copy %.3f ms\n", (long long)n, timed(cp, reps));
    for (int alg : {0, 1}) {
      CK(cusolverDnSetAdvOptions(prm, CUSOLVERDN_GETRF, (cusolverAlgMode_t)alg));
      size_t d2, h2; CK(cusolverDnXgetrf_bufferSize(cs, prm, n, n, CUDA_R_32F, W, n, CUDA_R_32F, &d2, &h2));
      printf("n=%lld copy+Xgetrf alg%d %.3f ms (ws %zu)\n", (long long)n, alg, timed([&] { cp(); CK(cusolverDnXgetrf(cs, prm, n, n, CUDA_R_32F, W, n, piv, CUDA_R_32F, dws, d2, hws, h2, info)); }, reps), d2);
    }
    CK(cusolverDnSetAdvOptions(prm, CUSOLVERDN_GETRF, CUSOLVER_ALG_0));
    int lw; CK(cusolverDnSgetrf_bufferSize(cs, n, n, W, n, &lw));
    printf("n=%lld copy+Sgetrf legacy %.3f ms\n", (long long)n, timed([&] { cp(); CK(cusolverDnSgetrf(cs, n, n, W, n, (float*)dws, ipiv, info)); }, reps));
    CK(cusolverDnSgetrf(cs, n, n, W, n, (float*)dws, ipiv, info));
    if (n == 512) {
      float** pp; cudaMalloc(&pp, 8); cudaMemcpy(pp, &W, 8, cudaMemcpyHostToDevice);
      printf("n=%lld copy+cublas getrfBatched(1) %.3f ms\n", (long long)n, timed([&] { cp(); CK(cublasSgetrfBatched(cb, n, pp, n, ipiv, info, 1)); }, reps));
      CK(cusolverDnXgetrf(cs, prm, n, n, CUDA_R_32F, W, n, piv, CUDA_R_32F, dws, db, hws, hb, info));
    }
    CK(cusolverDnXgetrf(cs, prm, n, n, CUDA_R_32F, W, n, piv, CUDA_R_32F, dws, db, hws, hb, info));
    printf("n=%lld Xgetrs nrhs=n %.3f ms\n", (long long)n, timed([&] { CK(cusolverDnXgetrs(cs, prm, CUBLAS_OP_N, n, n, CUDA_R_32F, W, n, piv, CUDA_R_32F, C, n, info)); }, reps));
    printf("n=%lld Sgetrs legacy nrhs=n %.3f ms\n", (long long)n, timed([&] { CK(cusolverDnSgetrs(cs, CUBLAS_OP_N, n, n, W, n, ipiv, C, n, info)); }, reps));
    float one = 1.f, zero = 0.f;
    auto trsm = [&](cublasSideMode_t s, cublasFillMode_t u, cublasDiagType_t d) { CK(cublasStrsm(cb, s, u, CUBLAS_OP_N, d, n, n, &one, W, n, C, n)); };
    printf("n=%lld strsm L lower unit %.3f ms\n", (long long)n, timed([&] { trsm(CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_UNIT); }, reps));
    printf("n=%lld strsm L upper nonunit %.3f ms\n", (long long)n, timed([&] { trsm(CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_DIAG_NON_UNIT); }, reps));
    printf("n=%lld strsm R lower unit %.3f ms\n", (long long)n, timed([&] { trsm(CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_UNIT); }, reps));
    printf("n=%lld strmm L upper %.3f ms\n", (long long)n, timed([&] { CK(cublasStrmm(cb, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n, &one, W, n, B, n, C, n)); }, reps));
    for (auto [u, d, name] : {std::tuple{CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_UNIT, "lower unit"}, std::tuple{CUBLAS_FILL_MODE_UPPER, CUBLAS_DIAG_NON_UNIT, "upper nonunit"}}) {
      size_t d3, h3; CK(cusolverDnXtrtri_bufferSize(cs, u, d, n, CUDA_R_32F, C, n, &d3, &h3));
      void* dw3; cudaMalloc(&dw3, std::max<size_t>(d3, 16)); void* hw3; cudaMallocHost(&hw3, std::max<size_t>(h3, 16));
      printf("n=%lld copy+Xtrtri %s %.3f ms\n", (long long)n, name, timed([&] { cudaMemcpyAsync(C, W, bytes, cudaMemcpyDeviceToDevice, st); CK(cusolverDnXtrtri(cs, u, d, n, CUDA_R_32F, C, n, dw3, d3, hw3, h3, info)); }, reps));
    }
    printf("n=%lld sgemm %.3f ms\n", (long long)n, timed([&] { CK(cublasSgemm(cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, W, n, B, n, &zero, C, n)); }, reps));
    cudaFree(A); cudaFree(W); cudaFree(B); cudaFree(C); cudaFree(dws);
  }
  cudaError_t e = cudaDeviceSynchronize(); printf("done %s\n", cudaGetErrorString(e));
}
