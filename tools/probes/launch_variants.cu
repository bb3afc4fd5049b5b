// Per-launch host cost by stream kind and API (runtime <<<>>> against the driver's
// cuLaunchKernel with a handle from cudaGetFuncBySymbol), in loops of 200 launches between
// syncs, with the enqueue time alone beside the total (equal: the host is the bound).
// Also cudaMallocAsync + cudaFreeAsync per call. Build and run on the GPU machine:
//   nvcc -O2 -arch=sm_90 -std=c++17 launch_variants.cu -lcuda -o /tmp/lv && /tmp/lv
#include <cuda.h>
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <vector>
#include <algorithm>
__global__ void add_small(float* out, const float* a, const float* b, long long n) {
  long long i = blockIdx.x * 256LL + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}
#define CK(x) do { auto e = (x); if (e) { printf("%s failed %d\n", #x, (int)e); return 1; } } while (0)
using clk = std::chrono::steady_clock;
static double g_enqueue;
template <class F> double per_call(F f, cudaStream_t s, int n = 200, int rounds = 31) {
  std::vector<double> v, q;
  for (int r = 0; r < rounds; ++r) {
    cudaStreamSynchronize(s); cudaDeviceSynchronize();
    auto t0 = clk::now();
    for (int i = 0; i < n; ++i) f();
    auto t1 = clk::now();
    cudaDeviceSynchronize();
    v.push_back(std::chrono::duration<double, std::micro>(clk::now() - t0).count() / n);
    q.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / n);
  }
  std::sort(v.begin(), v.end()); std::sort(q.begin(), q.end());
  g_enqueue = q[q.size() / 2];
  return v[v.size() / 2];
}
int main() {
  float *a, *b, *o;
  CK(cudaMalloc(&a, 1024)); CK(cudaMalloc(&b, 1024)); CK(cudaMalloc(&o, 1024));
  cudaStream_t nb, bl;
  CK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&bl, cudaStreamDefault));
  CUfunction fn;
  CK(cudaGetFuncBySymbol(&fn, (const void*)add_small));
  cudaMemPool_t pool; CK(cudaDeviceGetDefaultMemPool(&pool, 0));
  uint64_t thr = UINT64_MAX; CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));
  for (int pass = 0; pass < 2; ++pass) {
    struct { const char* name; cudaStream_t s; } ss[] = {{"legacy 0", 0}, {"per-thread", cudaStreamPerThread}, {"own non-blocking", nb}, {"own blocking", bl}};
    for (auto& x : ss) {
      cudaStream_t s = x.s;
      double t1 = per_call([&] { add_small<<<1, 256, 0, s>>>(o, a, b, 1); }, s);
      double q1 = g_enqueue;
      double t5 = per_call([&] { add_small<<<1, 32, 0, s>>>(o, a, b, 1); }, s);
      double q5 = g_enqueue;
      printf("pass %d %-17s launch 256 thr: total %.2f enqueue %.2f | 32 thr: total %.2f enqueue %.2f\n", pass, x.name, t1, q1, t5, q5);
      double t2 = per_call([&] {
        long long n = 1; void* args[] = {&o, &a, &b, &n};
        cuLaunchKernel(fn, 1, 1, 1, 256, 1, 1, 0, (CUstream)s, args, nullptr);
      }, s);
      double t3 = per_call([&] {
        float* p; cudaMallocAsync((void**)&p, 4, s);
        add_small<<<1, 256, 0, s>>>(p, a, b, 1);
        cudaFreeAsync(p, s);
      }, s);
      double t4 = per_call([&] {
        float* p; cudaMallocAsync((void**)&p, 4, s); cudaFreeAsync(p, s);
      }, s);
      printf("pass %d %-17s runtime launch %.2f us | driver cuLaunchKernel %.2f | mallocAsync+launch+freeAsync %.2f | mallocAsync+freeAsync %.2f\n",
             pass, x.name, t1, t2, t3, t4);
    }
  }
  CK(cudaDeviceSynchronize());
  return 0;
}
