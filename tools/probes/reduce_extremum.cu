// Whole-array max of 16M float32 and float64 through the library's reduction kernel
// (`reduce_inner_kernel`, one cooperative launch, as ops/reduce_launch.cpp runs it) with
// three combines: the library's (`ExtremumOp`: PTX max.NaN.f32 for float32, which
// propagates NaN in one instruction; NumPy's maximum for float64, which has no such
// instruction), NumPy's maximum (two NaN tests, a compare and a select an element), fmax
// alone (ignores NaN: the floor of a compare-free combine), and a sum of the same array
// beside them. The question was: is max float32 16M's distance from sum's (23.7 against
// 22.1 us in the H200 sweep) its combine's instructions? (Yes: decision log, Reductions.)
// Each form is checked on the hashed input and, for the NaN-propagating ones, on the input
// with one NaN. Median GPU time of one call and mean of 200 back to back.
// Build and run on the GPU machine, from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Icpp -Icpp/include \
//        tools/probes/reduce_extremum.cu -o /tmp/reduce_extremum && /tmp/reduce_extremum
#include <cmath>

#include "ops/reduce.cuh"
#include "probe_reduce_args.cuh"
#include "probe_timing.cuh"

using namespace gpuarr;

// NumPy's maximum as the combine: a NaN operand wins, else the larger.
template <class T> struct CompareChainMaxOp : NanRule<false> {
  using Acc = T;
  __device__ Acc identity() const { return -std::numeric_limits<T>::infinity(); }
  template <class C> __device__ Acc map(C x, int64_t) const { return x; }
  __device__ Acc combine(Acc a, Acc b) const { return ufn::Maximum{}(a, b); }
};

// fmax alone: a NaN operand is dropped (not NumPy's max; the combine's floor).
template <class T> struct FmaxOnlyOp : NanRule<false> {
  using Acc = T;
  __device__ Acc identity() const { return -std::numeric_limits<T>::infinity(); }
  template <class C> __device__ Acc map(C x, int64_t) const { return x; }
  __device__ Acc combine(Acc a, Acc b) const { return fmax(a, b); }
};

template <class T>
__global__ void fill_kernel(T* p, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    p[i] = T(index_hash(i) % 2000) - T(1000);
}

template <class Op, class T>
void form(const char* name, const T* x, const T* x_nan, int64_t n, int sms, T want,
          bool propagates_nan) {
  using Acc = typename Op::Acc;
  Acc* partial;
  T* out;
  CK(cudaMalloc(&partial, 4096 * sizeof(Acc)));
  CK(cudaMalloc(&out, sizeof(T)));
  // The planner's chunks: one wave of kReduceInnerBlocksPerSm blocks an SM.
  ReduceArgs a = whole_array_args(x, n, int64_t(sms) * kReduceInnerBlocksPerSm);
  a.combine_partials_in_grid = true;
  char* o = reinterpret_cast<char*>(out);
  auto run = [&] {
    void* params[] = {&a, &o, &partial};
    CK(cudaLaunchCooperativeKernel(
        reinterpret_cast<const void*>(&reduce_inner_kernel<Op, T, T, false>),
        dim3(1, unsigned(a.chunks)), dim3(kReduceThreads), params, 0, st));
  };
  auto result = [&] {
    CK(cudaStreamSynchronize(st));
    T got;
    CK(cudaMemcpy(&got, out, sizeof(T), cudaMemcpyDeviceToHost));
    return got;
  };
  run();
  const T got = result();
  const char* check = got == want ? "" : "WRONG";
  if (propagates_nan) {
    a.in = reinterpret_cast<const char*>(x_nan);
    run();
    if (!std::isnan(result())) check = "NaN LOST";
    a.in = reinterpret_cast<const char*>(x);
  }
  printf("%-34s %6.1f / %6.1f us %s\n", name, 1000 * timed(run, 51), 1000 * queued(run, 200),
         check);
  CK(cudaFree(partial));
  CK(cudaFree(out));
}

template <class T>
void compare(const char* type, int64_t n, int sms) {
  T *x, *x_nan;
  CK(cudaMalloc(&x, n * sizeof(T)));
  CK(cudaMalloc(&x_nan, n * sizeof(T)));
  fill_kernel<T><<<4096, 256, 0, st>>>(x, n);
  CK(cudaMemcpyAsync(x_nan, x, n * sizeof(T), cudaMemcpyDeviceToDevice, st));
  const T nan = std::numeric_limits<T>::quiet_NaN();
  CK(cudaMemcpyAsync(x_nan + n / 3, &nan, sizeof(T), cudaMemcpyHostToDevice, st));
  CK(cudaStreamSynchronize(st));
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += int64_t(index_hash(i) % 2000) - 1000;
  char name[64];
  snprintf(name, sizeof name, "sum %s 16M", type);
  // A float32 sum of 16M rounds: WRONG there may be a rounding, not a fault.
  form<SumOp<T, false>, T>(name, x, x_nan, n, sms, T(sum), false);
  snprintf(name, sizeof name, "max %s 16M (library)", type);
  form<ExtremumOp<T, true, false>, T>(name, x, x_nan, n, sms, T(999), true);
  snprintf(name, sizeof name, "max %s 16M (NumPy's maximum)", type);
  form<CompareChainMaxOp<T>, T>(name, x, x_nan, n, sms, T(999), true);
  snprintf(name, sizeof name, "max %s 16M (fmax, NaN dropped)", type);
  form<FmaxOnlyOp<T>, T>(name, x, x_nan, n, sms, T(999), false);
  CK(cudaFree(x));
  CK(cudaFree(x_nan));
}

int main() {
  CK(cudaStreamCreate(&st));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  compare<float>("float32", int64_t(1) << 24, sms);
  compare<double>("float64", int64_t(1) << 24, sms);
  return 0;
}
