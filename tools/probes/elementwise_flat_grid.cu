// The general elementwise kernel's 1-d (`Flat`) launches (`elementwise_kernel`,
// cpp/ops/elementwise.cuh): the library's grid (an element a thread, up to 2^20 blocks)
// against capped grids that give each thread several elements, and against plain 1-d
// strided loops (an element a thread; two or four elements a thread, loads first). Cases:
// exp of a[::2] (16M float32 read at 8 bytes), add of a[::2] and b[::2], a[::-1] + b, exp
// of a[1:] (contiguous, not 16-byte aligned). Median GPU time. Build and run on the GPU
// machine, from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Icpp -Icpp/include \
//        tools/probes/elementwise_flat_grid.cu -o /tmp/ew_flat && /tmp/ew_flat
#include "ops/elementwise.cuh"
#include "probe_timing.cuh"

using namespace gpuarr;
using Exp = EwLoop<ufn::Exp, float, 1, float, float>;

__global__ void fill_kernel(float* p, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    p[i] = ((uint32_t(i) * 2654435761u) % 2000000) / 1e6f - 1.f;
}

// U elements a thread, a grid apart, all loaded before any is computed (U = 1: CuPy's
// shape, the grid covering n).
template <int U>
__global__ void plain_exp_kernel(const float* in, int64_t stride, float* out, int64_t n) {
  const ufn::Exp op{};
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  const int64_t i0 = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  float v[U];
#pragma unroll
  for (int u = 0; u < U; ++u) v[u] = i0 + u * step < n ? in[(i0 + u * step) * stride] : 0.f;
#pragma unroll
  for (int u = 0; u < U; ++u)
    if (i0 + u * step < n) out[i0 + u * step] = Exp::apply(op, [&](int, auto) { return v[u]; });
}

template <int NIN>
EwArgs<NIN> flat_args(int64_t n, float* out, const float* const (&in)[NIN],
                      const int64_t (&strides)[NIN]) {
  EwArgs<NIN> a{};
  a.mode = EwMode::Flat;
  a.s.ndim = 1;
  a.s.shape[0] = n;
  a.s.data[0] = reinterpret_cast<char*>(out);
  a.s.strides[0][0] = sizeof(float);
  for (int k = 0; k < NIN; ++k) {
    a.s.data[k + 1] = reinterpret_cast<char*>(const_cast<float*>(in[k]));
    a.s.strides[k + 1][0] = strides[k];
  }
  return a;
}

// Median GPU time in us.
float us(std::function<void()> f) { return 1000 * timed(f, 9); }

int main() {
  CK(cudaStreamCreate(&st));
  const int64_t n = int64_t(1) << 24;
  float *in, *out;
  CK(cudaMalloc(&in, 2 * n * sizeof(float)));
  CK(cudaMalloc(&out, n * sizeof(float)));
  fill_kernel<<<4096, 256, 0, st>>>(in, 2 * n);
  const auto exp_strided = flat_args<1>(n, out, {in}, {8});
  const auto add_strided = flat_args<2>(n, out, {in, in + 1}, {8, 8});
  const auto add_reversed = flat_args<2>(n, out, {in + n - 1, in + n}, {-4, 4});
  const auto exp_unaligned = flat_args<1>(n, out, {in + 1}, {4});
  const unsigned full = static_cast<unsigned>(std::min<int64_t>((n + 255) / 256, 1 << 20));
  printf("16M float32, us       exp a[::2]  add a[::2] b[::2]  a[::-1] + b  exp a[1:]\n");
  for (unsigned g : {full, 528u, 1056u, 2112u, 4224u, 8448u, 16384u}) {
    printf("library, %6u blocks %9.1f %14.1f %12.1f %10.1f\n", g,
           us([&] { elementwise_kernel<ufn::Exp, float, 1, float, float>
                           <<<g, 256, 0, st>>>(exp_strided, n); }),
           us([&] { elementwise_kernel<ufn::Add, float, 2, float, float>
                           <<<g, 256, 0, st>>>(add_strided, n); }),
           us([&] { elementwise_kernel<ufn::Add, float, 2, float, float>
                           <<<g, 256, 0, st>>>(add_reversed, n); }),
           us([&] { elementwise_kernel<ufn::Exp, float, 1, float, float>
                           <<<g, 256, 0, st>>>(exp_unaligned, n); }));
  }
  // Rows mode: exp of a[:, ::2] of a 4096 x 8192 matrix (rows of 4096 elements 8 bytes
  // apart, a block a row).
  EwArgs<1> rows{};
  rows.mode = EwMode::Rows;
  rows.s.ndim = 2;
  rows.s.shape[0] = 4096;
  rows.s.shape[1] = 4096;
  rows.s.data[0] = reinterpret_cast<char*>(out);
  rows.s.strides[0][0] = 4096 * sizeof(float);
  rows.s.strides[0][1] = sizeof(float);
  rows.s.data[1] = reinterpret_cast<char*>(in);
  rows.s.strides[1][0] = 8192 * sizeof(float);
  rows.s.strides[1][1] = 2 * sizeof(float);
  printf("rows, exp a[:, ::2] 4096^2 %9.1f\n",
         us([&] { elementwise_kernel<ufn::Exp, float, 1, float, float>
                         <<<4096, 256, 0, st>>>(rows, n); }));
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, elementwise_kernel<ufn::Exp, float, 1, float, float>));
  printf("registers: exp float32 %d", fa.numRegs);
  CK(cudaFuncGetAttributes(&fa, elementwise_kernel<ufn::Add, float, 2, float, float>));
  printf(", add float32 %d", fa.numRegs);
  CK(cudaFuncGetAttributes(&fa, elementwise_kernel<ufn::Exp, double, 1, double, double>));
  printf(", exp float64 %d\n", fa.numRegs);
  printf("plain, 1 a thread     %9.1f\n",
         us([&] { plain_exp_kernel<1><<<(n + 255) / 256, 256, 0, st>>>(in, 2, out, n); }));
  printf("plain, 2 a thread     %9.1f\n",
         us([&] { plain_exp_kernel<2><<<(n + 511) / 512, 256, 0, st>>>(in, 2, out, n); }));
  printf("plain, 4 a thread     %9.1f\n",
         us([&] { plain_exp_kernel<4><<<(n + 1023) / 1024, 256, 0, st>>>(in, 2, out, n); }));
  CK(cudaGetLastError());
}
