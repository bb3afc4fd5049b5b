// Batched inverse of small matrices: cuBLAS getrfBatched + getriBatched (the route
// inv takes for batches, and CuPy's) against cublas<t>matinvBatched (one call, n <= 32),
// 1024x32x32 and 4096x16x16 float32 and float64, out of place. Median GPU time of one
// call and mean of 200 queued; the largest difference between the two routes' inverses,
// and both routes' info on a batch whose matrix 5 is singular (a zero column) and matrix 9
// has a zero leading entry (pivoting needed).
// Build and run on the GPU machine, from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 tools/probes/batched_inverse.cu -lcublas \
//        -o /tmp/batched_inverse && /tmp/batched_inverse
#include <cmath>
#include <cublas_v2.h>

#include "probe_timing.cuh"

template <class T>
__global__ void fill_kernel(T* p, int n, int batch) {
  const int64_t total = int64_t(n) * n * batch;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t e = i % (int64_t(n) * n);
    const int r = int(e / n), c = int(e % n);
    T v = T(index_hash(i) % 2001) / T(1000) - T(1);
    if (r == c) v += T(n) / 4;  // well conditioned, but not diagonally dominant for all n
    p[i] = v;
  }
}

__global__ void pointers_kernel(void** p, char* base, int64_t stride, int batch) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < batch) p[i] = base + i * stride;
}

template <class T> struct Cublas;
template <> struct Cublas<float> {
  static constexpr auto getrf = cublasSgetrfBatched;
  static constexpr auto getri = cublasSgetriBatched;
  static constexpr auto matinv = cublasSmatinvBatched;
};
template <> struct Cublas<double> {
  static constexpr auto getrf = cublasDgetrfBatched;
  static constexpr auto getri = cublasDgetriBatched;
  static constexpr auto matinv = cublasDmatinvBatched;
};

template <class T>
void compare(const char* type, int n, int batch, cublasHandle_t h) {
  const size_t bytes = size_t(n) * n * batch * sizeof(T);
  T *a, *work, *inv1, *inv2;
  void **pa, **pwork, **pinv1, **pinv2;
  int *piv, *info;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&work, bytes));
  CK(cudaMalloc(&inv1, bytes));
  CK(cudaMalloc(&inv2, bytes));
  CK(cudaMalloc(&pa, batch * sizeof(void*)));
  CK(cudaMalloc(&pwork, batch * sizeof(void*)));
  CK(cudaMalloc(&pinv1, batch * sizeof(void*)));
  CK(cudaMalloc(&pinv2, batch * sizeof(void*)));
  CK(cudaMalloc(&piv, size_t(n) * batch * sizeof(int)));
  CK(cudaMalloc(&info, batch * sizeof(int)));
  const int64_t stride = int64_t(n) * n * sizeof(T);
  fill_kernel<T><<<1024, 256, 0, st>>>(a, n, batch);
  pointers_kernel<<<(batch + 255) / 256, 256, 0, st>>>(pa, (char*)a, stride, batch);
  pointers_kernel<<<(batch + 255) / 256, 256, 0, st>>>(pwork, (char*)work, stride, batch);
  pointers_kernel<<<(batch + 255) / 256, 256, 0, st>>>(pinv1, (char*)inv1, stride, batch);
  pointers_kernel<<<(batch + 255) / 256, 256, 0, st>>>(pinv2, (char*)inv2, stride, batch);
  auto lu_route = [&] {
    CK(cudaMemcpyAsync(work, a, bytes, cudaMemcpyDeviceToDevice, st));
    CK(Cublas<T>::getrf(h, n, (T**)pwork, n, piv, info, batch));
    CK(Cublas<T>::getri(h, n, (const T**)pwork, n, piv, (T**)pinv1, n, info, batch));
  };
  auto matinv_route = [&] {
    CK(Cublas<T>::matinv(h, n, (const T**)pa, n, (T**)pinv2, n, info, batch));
  };
  lu_route();
  matinv_route();
  CK(cudaStreamSynchronize(st));
  std::vector<T> h1(bytes / sizeof(T)), h2(bytes / sizeof(T));
  CK(cudaMemcpy(h1.data(), inv1, bytes, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h2.data(), inv2, bytes, cudaMemcpyDeviceToHost));
  double diff = 0, scale = 0;
  for (size_t i = 0; i < h1.size(); ++i) {
    diff = std::max(diff, double(std::abs(h1[i] - h2[i])));
    scale = std::max(scale, double(std::abs(h1[i])));
  }
  printf("%s %dx%dx%d: getrf+getri %6.1f / %6.1f us, matinv %6.1f / %6.1f us, "
         "max |diff| %.2e of max |inv| %.2e\n",
         type, batch, n, n, 1000 * timed(lu_route, 51), 1000 * queued(lu_route, 200),
         1000 * timed(matinv_route, 51), 1000 * queued(matinv_route, 200), diff, scale);
  // Singular matrix 5 (column 2 zero), matrix 9 with a zero (0, 0) entry.
  std::vector<T> ha(bytes / sizeof(T));
  CK(cudaMemcpy(ha.data(), a, bytes, cudaMemcpyDeviceToHost));
  for (int r = 0; r < n; ++r) ha[size_t(5) * n * n + r * n + 2] = 0;
  ha[size_t(9) * n * n] = 0;
  CK(cudaMemcpy(a, ha.data(), bytes, cudaMemcpyHostToDevice));
  std::vector<int> i1(batch), i2(batch);
  lu_route();
  CK(cudaStreamSynchronize(st));
  CK(cudaMemcpy(i1.data(), info, batch * sizeof(int), cudaMemcpyDeviceToHost));
  matinv_route();
  CK(cudaStreamSynchronize(st));
  CK(cudaMemcpy(i2.data(), info, batch * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h1.data(), inv1, bytes, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h2.data(), inv2, bytes, cudaMemcpyDeviceToHost));
  double d9 = 0;
  for (int e = 0; e < n * n; ++e)
    d9 = std::max(d9, double(std::abs(h1[size_t(9) * n * n + e] - h2[size_t(9) * n * n + e])));
  printf("  info[5] getrf %d matinv %d; info[9] %d %d; matrix 9 max |diff| %.2e\n", i1[5],
         i2[5], i1[9], i2[9], d9);
  for (void* p : {(void*)a, (void*)work, (void*)inv1, (void*)inv2, (void*)pa, (void*)pwork,
                  (void*)pinv1, (void*)pinv2, (void*)piv, (void*)info})
    CK(cudaFree(p));
}

int main() {
  CK(cudaStreamCreate(&st));
  cublasHandle_t h;
  CK(cublasCreate(&h));
  CK(cublasSetStream(h, st));
  compare<float>("float32", 32, 1024, h);
  compare<float>("float32", 16, 4096, h);
  compare<float>("float32", 8, 16384, h);
  compare<double>("float64", 32, 1024, h);
  compare<double>("float64", 16, 4096, h);
  return 0;
}
