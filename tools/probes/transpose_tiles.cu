// ascontiguousarray(a.T) of a 4096^2 float32 and float64 matrix: the library's tile
// (move_tile_transposed in ops/strided.cuh: 32 x 32, kTransposeTileRows<W> rows of threads,
// 64-bit offsets) in a plain kernel, against plain tiled transposes of TILE x TILE elements
// with ROWS rows of threads and 32-bit offsets, float32 moved as 8-byte pairs on both sides,
// and a device-to-device copy of the same bytes. Each form is checked against the host's
// transpose, then timed one call at a time and back to back. The tile ran at 92% of the
// copy bandwidth while the transposing copy's kernel ran at 66%: its batch loop's offsets
// took 78 registers (docs/decisions.md, "Tiled moves at 32 registers").
// Build and run on the GPU machine, from the repository root (-Xptxas -v for registers):
//   nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Icpp -Icpp/include \
//        tools/probes/transpose_tiles.cu -o /tmp/transpose_tiles && /tmp/transpose_tiles
#include <cstring>
#include <string>

#include "ops/strided.cuh"
#include "probe_timing.cuh"

using namespace gpuarr;

// Element (x, y) of the source at src[y * n + x], written at dst[x * n + y].
template <class W>
__global__ void library_tile_kernel(const W* src, W* dst, int64_t n) {
  __shared__ TransposeTile<W> tile;
  move_tile_transposed<W>(
      tile, blockIdx.x * int64_t(kTransposeTile), blockIdx.y * int64_t(kTransposeTile), n, n,
      [&](int64_t x, int64_t y) { return src[x + y * n]; }, reinterpret_cast<char*>(dst),
      n * int64_t(sizeof(W)));
}

template <class W, int TILE, int ROWS>
__global__ void __launch_bounds__(TILE * ROWS) plain_tile_kernel(const W* src, W* dst,
                                                                 uint32_t n) {
  __shared__ W tile[TILE][TILE + 1];
  const uint32_t x0 = blockIdx.x * TILE, y0 = blockIdx.y * TILE;
  const uint32_t x = x0 + threadIdx.x;
#pragma unroll
  for (int k = 0; k < TILE; k += ROWS) {
    const uint32_t y = y0 + threadIdx.y + k;
    if (x < n && y < n) tile[threadIdx.y + k][threadIdx.x] = src[size_t(y) * n + x];
  }
  __syncthreads();
  const uint32_t wy = y0 + threadIdx.x;
#pragma unroll
  for (int k = 0; k < TILE; k += ROWS) {
    const uint32_t wx = x0 + threadIdx.y + k;
    if (wx < n && wy < n) dst[size_t(wx) * n + wy] = tile[threadIdx.x][threadIdx.y + k];
  }
}

// 4-byte elements moved as 8-byte pairs on both sides: a 64 x 64 tile, each thread reads two
// neighbours of a source row and writes two neighbours of a destination row (n even).
template <int ROWS>
__global__ void __launch_bounds__(32 * ROWS) pair_tile_kernel(const float* src, float* dst,
                                                              uint32_t n) {
  __shared__ float tile[64][65];
  const uint32_t x0 = blockIdx.x * 64, y0 = blockIdx.y * 64;
  const uint32_t x = x0 + 2 * threadIdx.x;
#pragma unroll
  for (int k = 0; k < 64; k += ROWS) {
    const uint32_t y = y0 + threadIdx.y + k;
    if (x < n && y < n) {
      const float2 v = *reinterpret_cast<const float2*>(src + size_t(y) * n + x);
      tile[threadIdx.y + k][2 * threadIdx.x] = v.x;
      tile[threadIdx.y + k][2 * threadIdx.x + 1] = v.y;
    }
  }
  __syncthreads();
  const uint32_t wy = y0 + 2 * threadIdx.x;
#pragma unroll
  for (int k = 0; k < 64; k += ROWS) {
    const uint32_t c = threadIdx.y + k, wx = x0 + c;
    if (wx < n && wy < n)
      *reinterpret_cast<float2*>(dst + size_t(wx) * n + wy) =
          make_float2(tile[2 * threadIdx.x][c], tile[2 * threadIdx.x + 1][c]);
  }
}

template <int ROWS>
std::pair<std::string, std::function<void()>> pairs(const float* src, float* dst, uint32_t n) {
  const dim3 grid((n + 63) / 64, (n + 63) / 64);
  return {"pairs 64 x 64, " + std::to_string(ROWS) + " rows",
          [=] { pair_tile_kernel<ROWS><<<grid, dim3(32, ROWS), 0, st>>>(src, dst, n); }};
}

template <class W, int TILE, int ROWS>
std::pair<std::string, std::function<void()>> plain(const W* src, W* dst, uint32_t n) {
  const dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
  return {"tile " + std::to_string(TILE) + " x " + std::to_string(TILE) + ", " +
              std::to_string(ROWS) + " rows",
          [=] { plain_tile_kernel<W, TILE, ROWS><<<grid, dim3(TILE, ROWS), 0, st>>>(src, dst, n); }};
}

template <class W>
void run(const char* name, uint32_t n) {
  const size_t count = size_t(n) * n, bytes = count * sizeof(W);
  std::vector<W> h(count), want(count), got(count);
  for (size_t i = 0; i < count; ++i) h[i] = W(uint32_t(i) * 2654435761u % 1000003);
  for (size_t y = 0; y < n; ++y)
    for (size_t x = 0; x < n; ++x) want[x * n + y] = h[y * n + x];
  W *src, *dst;
  CK(cudaMalloc(&src, bytes));
  CK(cudaMalloc(&dst, bytes));
  CK(cudaMemcpy(src, h.data(), bytes, cudaMemcpyHostToDevice));
  const dim3 lib_grid((n + kTransposeTile - 1) / kTransposeTile,
                      (n + kTransposeTile - 1) / kTransposeTile);
  std::vector<std::pair<std::string, std::function<void()>>> forms = {
      {"library", [=] {
         library_tile_kernel<W><<<lib_grid, dim3(kTransposeTile, kTransposeTileRows<W>), 0, st>>>(
             src, dst, n);
       }},
      plain<W, 32, 8>(src, dst, n),  plain<W, 32, 4>(src, dst, n),
      plain<W, 32, 2>(src, dst, n),  plain<W, 64, 4>(src, dst, n),
      plain<W, 64, 8>(src, dst, n),  plain<W, 64, 16>(src, dst, n),
      {"copy of the bytes", [=] { cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, st); }}};
  if constexpr (sizeof(W) == 4) {
    if (n % 2 == 0) {
      forms.insert(forms.end() - 1, pairs<4>(src, dst, n));
      forms.insert(forms.end() - 1, pairs<8>(src, dst, n));
      forms.insert(forms.end() - 1, pairs<16>(src, dst, n));
    }
  }
  printf("%s %ux%u (%.0f MB read + written), us: one call at a time / back to back\n", name, n,
         n, 2.0 * bytes / 1e6);
  for (auto& f : forms) {
    const bool is_copy = f.first == "copy of the bytes";
    if (!is_copy) {
      CK(cudaMemset(dst, 0, bytes));
      f.second();
      CK(cudaStreamSynchronize(st));
      CK(cudaMemcpy(got.data(), dst, bytes, cudaMemcpyDeviceToHost));
      if (std::memcmp(got.data(), want.data(), bytes) != 0) {
        printf("  %-22s WRONG RESULT\n", f.first.c_str());
        continue;
      }
    }
    queued(f.second, 3);
    const float one = 1000 * timed(f.second, 21);
    const float loop = 1000 * queued(f.second, 50);
    printf("  %-22s %7.1f / %7.1f  (%.0f GB/s back to back)\n", f.first.c_str(), one, loop,
           2.0 * bytes / loop / 1e3);
  }
  CK(cudaFree(src));
  CK(cudaFree(dst));
}

int main() {
  CK(cudaStreamCreate(&st));
  run<float>("float32", 4096);
  run<double>("float64", 4096);
  run<float>("float32", 4099);  // partial tiles at the edges
  run<float>("float32", 4098);  // partial pair tiles
  return 0;
}
