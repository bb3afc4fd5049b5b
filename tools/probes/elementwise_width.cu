// Elements a thread of the contiguous elementwise kernel (`elementwise_contiguous_kernel`,
// cpp/ops/elementwise.cuh) for 8-byte operands: one element against a 16-byte pair, both
// with the grid-stride loops rolled, over loops where the work per element is short (add),
// long (exp, arctan2, floor_divide of int64) or the result narrower (absolute of
// complex64; isfinite, isnan, less of float64 and equal of int64: a byte out). The
// library takes one element (`EwLoop::kContiguousV`); pairs hold 52-56 registers where the
// work is long. Median GPU time of 16M elements. Build and run on the
// GPU machine, from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Icpp -Icpp/include \
//        tools/probes/elementwise_width.cu -o /tmp/ew_width && /tmp/ew_width
#include "ops/elementwise.cuh"
#include "probe_timing.cuh"

using namespace gpuarr;

// Hashed values: float64 in [-1, 1) (kind 0), int64 in [1, 1e6] (1), float32 in [-1, 1) (2),
// float64 in (0, 2] (3).
__global__ void fill_kernel(char* p, int64_t n, uint32_t seed, int kind) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    uint32_t h = uint32_t(i) * 2654435761u ^ seed;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    if (kind == 0) reinterpret_cast<double*>(p)[i] = (h % 2000000) / 1e6 - 1.0;
    else if (kind == 1) reinterpret_cast<int64_t*>(p)[i] = 1 + h % 1000000;
    else if (kind == 2) reinterpret_cast<float*>(p)[i] = (h % 2000000) / 1e6f - 1.0f;
    else reinterpret_cast<double*>(p)[i] = (h % 2000000 + 1) / 1e6;
  }
}

template <class Op, class Out, int NIN, class In, class In0, int V>
float time_loop(int64_t n, char* out, char* x, char* y) {
  EwArgs<NIN> a{};
  a.s.data[0] = out;
  a.s.data[1] = x;
  if (NIN > 1) a.s.data[2] = y;
  const dim3 grid(static_cast<unsigned>(std::min<int64_t>((n / V + 255) / 256, 1 << 20)));
  auto launch = [&] {
    elementwise_contiguous_kernel<Op, Out, NIN, In, In0, V><<<grid, 256, 0, st>>>(a, n);
  };
  return 1000 * timed(launch, 21);
}

template <class Op, class Out, int NIN, class In, class In0>
void row(const char* name, int64_t n, char* out, char* x, char* y) {
  const float one = time_loop<Op, Out, NIN, In, In0, 1>(n, out, x, y);
  const float pair = time_loop<Op, Out, NIN, In, In0, 2>(n, out, x, y);
  CK(cudaGetLastError());
  cudaFuncAttributes f1, f2;
  CK(cudaFuncGetAttributes(&f1, elementwise_contiguous_kernel<Op, Out, NIN, In, In0, 1>));
  CK(cudaFuncGetAttributes(&f2, elementwise_contiguous_kernel<Op, Out, NIN, In, In0, 2>));
  printf("%-22s one element %7.1f us (%2d registers)   pair %7.1f us (%2d)\n", name, one,
         f1.numRegs, pair, f2.numRegs);
}

int main() {
  const int64_t n = 1 << 24;
  CK(cudaStreamCreate(&st));
  char *out, *x, *y, *xi, *yi, *xc, *xp;
  CK(cudaMalloc(&out, n * 16));
  CK(cudaMalloc(&x, n * 8));
  CK(cudaMalloc(&y, n * 8));
  CK(cudaMalloc(&xi, n * 8));
  CK(cudaMalloc(&yi, n * 8));
  CK(cudaMalloc(&xc, n * 8));
  CK(cudaMalloc(&xp, n * 8));
  fill_kernel<<<4096, 256, 0, st>>>(x, n, 1, 0);
  fill_kernel<<<4096, 256, 0, st>>>(y, n, 2, 0);
  fill_kernel<<<4096, 256, 0, st>>>(xi, n, 3, 1);
  fill_kernel<<<4096, 256, 0, st>>>(yi, n, 4, 1);
  fill_kernel<<<4096, 256, 0, st>>>(xc, 2 * n, 5, 2);  // complex64: pairs of float32
  fill_kernel<<<4096, 256, 0, st>>>(xp, n, 6, 3);
  CK(cudaStreamSynchronize(st));
  row<ufn::Add, double, 2, double, double>("add float64", n, out, x, y);
  row<ufn::Exp, double, 1, double, double>("exp float64", n, out, x, y);
  row<ufn::Arctan2, double, 2, double, double>("arctan2 float64", n, out, x, y);
  row<ufn::Add, int64_t, 2, int64_t, int64_t>("add int64", n, out, xi, yi);
  row<ufn::FloorDivide, int64_t, 2, int64_t, int64_t>("floor_divide int64", n, out, xi, yi);
  row<ufn::Absolute, float, 1, complex64_t, complex64_t>("absolute complex64", n, out, xc, xc);
  row<ufn::Exp, complex64_t, 1, complex64_t, complex64_t>("exp complex64", n, out, xc, xc);
  // Narrow results: 8-byte operands, a byte out (one element a thread stores a byte).
  row<ufn::Isfinite, bool, 1, double, double>("isfinite float64", n, out, x, y);
  row<ufn::Isnan, bool, 1, double, double>("isnan float64", n, out, x, y);
  row<ufn::Less, bool, 2, double, double>("less float64", n, out, x, y);
  row<ufn::Equal, bool, 2, uint64_t, uint64_t>("equal int64", n, out, xi, yi);
  row<ufn::Sqrt, double, 1, double, double>("sqrt float64", n, out, x, y);
  // Functions of float64 (libdevice): which hold enough registers that pairs lose.
  row<ufn::Log, double, 1, double, double>("log float64", n, out, xp, y);
  row<ufn::Log10, double, 1, double, double>("log10 float64", n, out, xp, y);
  row<ufn::Exp2, double, 1, double, double>("exp2 float64", n, out, x, y);
  row<ufn::Expm1, double, 1, double, double>("expm1 float64", n, out, x, y);
  row<ufn::Sin, double, 1, double, double>("sin float64", n, out, x, y);
  row<ufn::Cos, double, 1, double, double>("cos float64", n, out, x, y);
  row<ufn::Tanh, double, 1, double, double>("tanh float64", n, out, x, y);
  row<ufn::Sinh, double, 1, double, double>("sinh float64", n, out, x, y);
  row<ufn::Arcsin, double, 1, double, double>("arcsin float64", n, out, x, y);
  row<ufn::Arctan, double, 1, double, double>("arctan float64", n, out, x, y);
  row<ufn::Cbrt, double, 1, double, double>("cbrt float64", n, out, xp, y);
  row<ufn::Power, double, 2, double, double>("power float64", n, out, xp, x);
  row<ufn::Hypot, double, 2, double, double>("hypot float64", n, out, x, y);
  row<ufn::Rint, double, 1, double, double>("rint float64", n, out, x, y);
  row<ufn::TrueDivide, double, 2, double, double>("true_divide float64", n, out, x, y);
  row<ufn::Multiply, int64_t, 2, int64_t, int64_t>("multiply int64", n, out, xi, yi);
  row<ufn::Remainder, int64_t, 2, int64_t, int64_t>("remainder int64", n, out, xi, yi);
  row<ComputedAs<ufn::TrueDivide, double>, double, 2, int32_t, int32_t>("true_divide int32",
                                                                        n, out, xi, yi);
  row<ComputedAs<ufn::Exp, double>, double, 1, int32_t, int32_t>("exp int32", n, out, xi, yi);
  row<ufn::Log2, double, 1, double, double>("log2 float64", n, out, xp, y);
  row<ufn::Log1p, double, 1, double, double>("log1p float64", n, out, xp, y);
  row<ufn::Tan, double, 1, double, double>("tan float64", n, out, x, y);
  row<ufn::Cosh, double, 1, double, double>("cosh float64", n, out, x, y);
  row<ufn::Arccos, double, 1, double, double>("arccos float64", n, out, x, y);
  row<ufn::Arcsinh, double, 1, double, double>("arcsinh float64", n, out, x, y);
  row<ufn::Arccosh, double, 1, double, double>("arccosh float64", n, out, xp, y);
  row<ufn::Arctanh, double, 1, double, double>("arctanh float64", n, out, x, y);
  row<ufn::Reciprocal, double, 1, double, double>("reciprocal float64", n, out, xp, y);
  row<ufn::FloorDivide, double, 2, double, double>("floor_divide float64", n, out, x, xp);
  row<ufn::Remainder, double, 2, double, double>("remainder float64", n, out, x, xp);
  row<ufn::Fmod, double, 2, double, double>("fmod float64", n, out, x, xp);
  row<ufn::Logaddexp, double, 2, double, double>("logaddexp float64", n, out, x, y);
  row<ufn::Maximum, double, 2, double, double>("maximum float64", n, out, x, y);
  row<ufn::Square, double, 1, double, double>("square float64", n, out, x, y);
  row<ComputedAs<ufn::TrueDivide, double>, double, 2, int64_t, int64_t>("true_divide int64",
                                                                        n, out, xi, yi);
  row<ComputedAs<ufn::Sqrt, double>, double, 1, int32_t, int32_t>("sqrt int32", n, out, xi, yi);
  row<ufn::Sqrt, complex64_t, 1, complex64_t, complex64_t>("sqrt complex64", n, out, xc, xc);
  row<ufn::Log, complex64_t, 1, complex64_t, complex64_t>("log complex64", n, out, xc, xc);
  const float copy = 1000 * timed([&] { CK(cudaMemcpyAsync(out, x, n * 4, cudaMemcpyDeviceToDevice, st)); }, 21);
  printf("%-22s %7.1f us (the copy bandwidth's reference: 2 x 64 MiB)\n", "copy of 16M float32", copy);
  return 0;
}
