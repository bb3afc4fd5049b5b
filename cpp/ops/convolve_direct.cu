// Direct 1-d and 2-d correlation kernels, compiled ahead of time for float32, float64,
// complex64 and complex128 (see ops/convolve.hpp for the form).
//
// 2-d, "blocked" (the usual route): a block of 32 x 8 threads computes a 32-wide, 8*R-tall output
// tile (R = 16; 8 for complex128). The input tile plus halo is loaded once into shared
// memory (interior tiles with cp.async straight from global memory, coalesced; edge tiles
// through the boundary rule), the filter transposed next to it. Each thread owns R
// vertically consecutive outputs of one column; for each filter column v it holds the kh
// taps of that column in registers (warp-uniform shared loads: broadcasts) and slides down
// its column: each of the R + kh - 1 input values is read from shared memory once and feeds
// up to min(R, kh) multiply-adds. That makes ~ (R + kh - 1 + kh) shared loads per R * kh
// FMAs instead of ~ one per FMA. kh in {3, 5, ..., 15} (float32, float64, complex64) is a
// compile-time specialisation (fully unrolled, no predicates); other heights go through a
// general variant in chunks of K rows with predicates. kw is a run-time loop. Columns of
// warp lanes are consecutive: no bank conflicts, coalesced output stores.
//
// 2-d, "tiled" (one output row, whose blocked tile would be mostly idle, or a blocked tile
// larger than the device's shared memory): a block of 32 x 8 threads computes a 32-wide,
// 8*R-tall output tile. It loads the input tile plus halo ((8R + kh - 1) x (32 + kw - 1))
// into shared memory once, applying the boundary rule in the load. Each thread then owns R vertically consecutive outputs of one
// column: for each filter column v it reads the R + kh - 1 tile values of its column into
// registers (warp lanes read consecutive addresses: no bank conflicts) and does R * kh
// multiply-adds from them, the filter value being uniform across the warp. The register
// window is unrolled to a compile-time bound K (4, 8 or 16; filters taller than 16 rows go
// through it in chunks of 16 rows); tiles too large for 48 KiB of shared memory use a plain
// one-output-per-thread kernel.
// 1-d: a block of 256 threads computes 256*R outputs (thread t: t, t+256, ...), from an input
// tile + halo and the filter in shared memory.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <type_traits>

#include "core/errors.hpp"
#include "ops/array_ops.hpp"
#include "ops/convolve.hpp"
#include "ops/device_types.cuh"
#include "ops/strided.cuh"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"

namespace gpuarr {
namespace {

__device__ __forceinline__ float mad(float acc, float w, float x) { return fmaf(w, x, acc); }
__device__ __forceinline__ double mad(double acc, double w, double x) { return fma(w, x, acc); }
// Complex multiply-add with real FMAs of the component type (no promotion to double).
template <class R>
__device__ __forceinline__ Complex<R> mad(Complex<R> acc, Complex<R> w, Complex<R> x) {
  acc.re = mad(acc.re, w.re, x.re);
  acc.re = mad(acc.re, -w.im, x.im);
  acc.im = mad(acc.im, w.re, x.im);
  acc.im = mad(acc.im, w.im, x.re);
  return acc;
}

struct Conv2DArgs {
  const char* in;
  int64_t h, w;    // input extent
  int64_t sy, sx;  // input strides in elements
  const char* filt;
  int kh, kw;
  char* out;
  int64_t oh, ow;
  int64_t py, px;
  ConvBoundary boundary;
  int async_ok;  // in is aligned to sizeof(T): cp.async may copy interior tiles
};

template <class T>
__device__ __forceinline__ T load_input(const Conv2DArgs& a, int64_t y, int64_t x, T fill) {
  const int64_t yy = conv_boundary_index(y, a.h, a.boundary);
  const int64_t xx = conv_boundary_index(x, a.w, a.boundary);
  if (yy < 0 || xx < 0) return fill;
  return reinterpret_cast<const T*>(a.in)[yy * a.sy + xx * a.sx];
}

// A thread's R outputs, rows oy..oy + R - 1 of column ox (those inside the output).
template <class T, int R>
__device__ __forceinline__ void store_output_rows(const Conv2DArgs& a, int64_t oy, int64_t ox,
                                                  const T (&acc)[R]) {
  if (ox >= a.ow) return;
  T* out = reinterpret_cast<T*>(a.out);
#pragma unroll
  for (int j = 0; j < R; ++j)
    if (oy + j < a.oh) out[(oy + j) * a.ow + ox] = acc[j];
}

constexpr int kTX = 32;
constexpr int kTY = 8;

template <class T>
constexpr int rows_per_thread() {
  return sizeof(T) >= 16 ? 4 : 8;
}

template <class T, int R, int K>
__global__ void __launch_bounds__(kTX* kTY) conv2d_tiled_kernel(Conv2DArgs a, T fill) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* tile = reinterpret_cast<T*>(smem_raw);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int kh = a.kh, kw = a.kw;
  const int tile_h = kTY * R + kh - 1;
  const int tile_w = kTX + kw - 1;
  const int64_t oy0 = int64_t(blockIdx.y) * (kTY * R);
  const int64_t ox0 = int64_t(blockIdx.x) * kTX;
  const int64_t iy0 = oy0 - a.py, ix0 = ox0 - a.px;
  for (int r = ty; r < tile_h; r += kTY) {
    for (int c = tx; c < tile_w; c += kTX) {
      tile[r * tile_w + c] = load_input<T>(a, iy0 + r, ix0 + c, fill);
    }
  }
  __syncthreads();
  const T* filt = reinterpret_cast<const T*>(a.filt);
  T acc[R];
#pragma unroll
  for (int j = 0; j < R; ++j) acc[j] = T{};
  const int row0 = ty * R;
  // Filter rows in chunks of K (one chunk unless kh > 16).
  for (int u0 = 0; u0 < kh; u0 += K) {
    const int kc = min(K, kh - u0);
    for (int v = 0; v < kw; ++v) {
      T seg[R + K - 1];
      const T* col = tile + (row0 + u0) * tile_w + tx + v;
#pragma unroll
      for (int i = 0; i < R + K - 1; ++i) {
        if (i < R + kc - 1) seg[i] = col[i * tile_w];
      }
#pragma unroll
      for (int u = 0; u < K; ++u) {
        if (u < kc) {
          const T wv = filt[(u0 + u) * kw + v];
#pragma unroll
          for (int j = 0; j < R; ++j) acc[j] = mad(acc[j], wv, seg[j + u]);
        }
      }
    }
  }
  store_output_rows<T, R>(a, oy0 + row0, ox0 + tx, acc);
}

// ---------------------------------------------------------------------------------------
// Register-blocked kernel (see the header comment).
constexpr int kBX = 32;
constexpr int kBY = 8;

template <class T>
constexpr int blocked_rows() {
  return sizeof(T) >= 16 ? 8 : 16;
}

// One element global -> shared without passing through registers (sm_80+: cp.async).
// The next element of a thread's walk over a tile_w-wide tile: (r, c) advances by the
// thread count, precomputed as dr rows and dc columns.
__device__ __forceinline__ void step_tile_index(int& r, int& c, int dr, int dc, int tile_w) {
  r += dr;
  c += dc;
  if (c >= tile_w) {
    c -= tile_w;
    ++r;
  }
}

template <class T>
__device__ __forceinline__ void copy_to_shared_async(T* dst, const T* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16, "cp.async size");
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(s), "l"(src),
               "n"(int(sizeof(T)))
               : "memory");
#else
  *dst = *src;
#endif
}

__device__ __forceinline__ void wait_shared_async() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// EXACT: kh == K (one chunk, no predicates). Otherwise filter rows go in chunks of K.
template <class T, int R, int K, bool EXACT>
__global__ void __launch_bounds__(kBX* kBY, 2) conv2d_blocked_kernel(Conv2DArgs a, T fill) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  constexpr int kThreads = kBX * kBY;
  T* tile = reinterpret_cast<T*>(smem_raw);
  const int kh = EXACT ? K : a.kh;
  const int kw = a.kw;
  const int tile_h = kBY * R + kh - 1;
  const int tile_w = kBX + kw - 1;
  const int tile_n = tile_h * tile_w;
  T* wt = tile + tile_n;  // the filter transposed: wt[v * kh + u] = filt[u * kw + v]
  const int tid = threadIdx.y * kBX + threadIdx.x;
  const int64_t oy0 = int64_t(blockIdx.y) * (kBY * R);
  const int64_t ox0 = int64_t(blockIdx.x) * kBX;
  const int64_t iy0 = oy0 - a.py, ix0 = ox0 - a.px;

  const T* filt = reinterpret_cast<const T*>(a.filt);
  for (int i = tid; i < kh * kw; i += kThreads) {
    const int u = i / kw, v = i - u * kw;
    wt[v * kh + u] = filt[i];
  }
  // Row/column of element tid of the tile, advanced by kThreads elements per step.
  int r = tid / tile_w, c = tid - (tid / tile_w) * tile_w;
  const int dr = kThreads / tile_w, dc = kThreads - dr * tile_w;
  const bool inside = iy0 >= 0 && ix0 >= 0 && iy0 + tile_h <= a.h && ix0 + tile_w <= a.w;
  if (inside && a.async_ok) {
    const T* src = reinterpret_cast<const T*>(a.in) + iy0 * a.sy + ix0 * a.sx;
    for (int i = tid; i < tile_n; i += kThreads) {
      copy_to_shared_async(tile + i, src + int64_t(r) * a.sy + int64_t(c) * a.sx);
      step_tile_index(r, c, dr, dc, tile_w);
    }
    wait_shared_async();
  } else {
    // Edge tiles: the boundary rule picks the element (or the fill); the copies themselves
    // are asynchronous too, so the loads of a thread do not wait for one another.
    const T* in = reinterpret_cast<const T*>(a.in);
    for (int i = tid; i < tile_n; i += kThreads) {
      const int64_t yy = conv_boundary_index(iy0 + r, a.h, a.boundary);
      const int64_t xx = conv_boundary_index(ix0 + c, a.w, a.boundary);
      if (yy < 0 || xx < 0) {
        tile[i] = fill;
      } else if (a.async_ok) {
        copy_to_shared_async(tile + i, in + yy * a.sy + xx * a.sx);
      } else {
        tile[i] = in[yy * a.sy + xx * a.sx];
      }
      step_tile_index(r, c, dr, dc, tile_w);
    }
    wait_shared_async();
  }
  __syncthreads();

  T acc[R];
#pragma unroll
  for (int j = 0; j < R; ++j) acc[j] = T{};
  const int tx = threadIdx.x, row0 = threadIdx.y * R;
  if constexpr (EXACT) {
    const T* col = tile + row0 * tile_w + tx;
    const T* wv = wt;
#pragma unroll 1
    for (int v = 0; v < kw; ++v, ++col, wv += K) {
      T w[K];
#pragma unroll
      for (int u = 0; u < K; ++u) w[u] = wv[u];
#pragma unroll
      for (int i = 0; i < R + K - 1; ++i) {
        const T x = col[i * tile_w];
#pragma unroll
        for (int j = 0; j < R; ++j) {
          if (i - j >= 0 && i - j < K) acc[j] = mad(acc[j], w[i - j], x);
        }
      }
    }
  } else {
#pragma unroll 1
    for (int u0 = 0; u0 < kh; u0 += K) {
      const int kc = min(K, kh - u0);
      const T* col = tile + (row0 + u0) * tile_w + tx;
      const T* wv = wt + u0;
#pragma unroll 1
      for (int v = 0; v < kw; ++v, ++col, wv += kh) {
        T w[K];
#pragma unroll
        for (int u = 0; u < K; ++u) w[u] = u < kc ? wv[u] : T{};
#pragma unroll
        for (int i = 0; i < R + K - 1; ++i) {
          if (i < R + kc - 1) {  // rows past this chunk's window are not read
            const T x = col[i * tile_w];
#pragma unroll
            for (int j = 0; j < R; ++j) {
              if (i - j >= 0 && i - j < K && i - j < kc) acc[j] = mad(acc[j], w[i - j], x);
            }
          }
        }
      }
    }
  }
  store_output_rows<T, R>(a, oy0 + row0, ox0 + tx, acc);
}

template <class T>
__global__ void conv2d_generic_kernel(Conv2DArgs a, T fill) {
  const int64_t n = a.oh * a.ow;
  const T* filt = reinterpret_cast<const T*>(a.filt);
  T* out = reinterpret_cast<T*>(a.out);
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t y = i / a.ow, x = i % a.ow;
    T acc{};
    for (int u = 0; u < a.kh; ++u) {
      for (int v = 0; v < a.kw; ++v) {
        acc = mad(acc, filt[u * a.kw + v], load_input<T>(a, y + u - a.py, x + v - a.px, fill));
      }
    }
    out[i] = acc;
  }
}

constexpr int k1DThreads = 256;
constexpr int k1DRows = 4;

// 1-d, boundary fill only (NumPy's and SciPy's n-d convolve pad with zeros).
template <class T>
__global__ void __launch_bounds__(k1DThreads)
    conv1d_tiled_kernel(const T* __restrict__ in, int64_t n, int64_t s, const T* __restrict__ w,
                        int k, T* __restrict__ out, int64_t out_len, int64_t pad, T fill) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* tile = reinterpret_cast<T*>(smem_raw);
  constexpr int span = k1DThreads * k1DRows;
  const int tile_len = span + k - 1;
  T* wsh = tile + tile_len;
  const int tx = threadIdx.x;
  const int64_t o0 = int64_t(blockIdx.x) * span;
  const int64_t i0 = o0 - pad;
  for (int c = tx; c < tile_len; c += k1DThreads) {
    const int64_t i = i0 + c;
    tile[c] = (i >= 0 && i < n) ? in[i * s] : fill;
  }
  for (int c = tx; c < k; c += k1DThreads) wsh[c] = w[c];
  __syncthreads();
  T acc[k1DRows];
#pragma unroll
  for (int j = 0; j < k1DRows; ++j) acc[j] = T{};
  for (int u = 0; u < k; ++u) {
    const T wv = wsh[u];
#pragma unroll
    for (int j = 0; j < k1DRows; ++j) acc[j] = mad(acc[j], wv, tile[tx + k1DThreads * j + u]);
  }
#pragma unroll
  for (int j = 0; j < k1DRows; ++j) {
    const int64_t o = o0 + tx + k1DThreads * j;
    if (o < out_len) out[o] = acc[j];
  }
}

template <class T>
__global__ void conv1d_generic_kernel(const T* __restrict__ in, int64_t n, int64_t s,
                                      const T* __restrict__ w, int64_t k, T* __restrict__ out,
                                      int64_t out_len, int64_t pad, T fill) {
  for (int64_t o = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; o < out_len;
       o += int64_t(gridDim.x) * blockDim.x) {
    T acc{};
    for (int64_t u = 0; u < k; ++u) {
      const int64_t i = o + u - pad;
      acc = mad(acc, w[u], (i >= 0 && i < n) ? in[i * s] : fill);
    }
    out[o] = acc;
  }
}

constexpr size_t kDefaultSmem = 48 * 1024;

int max_optin_smem() {
  int optin = 0;
  GPUARR_CUDA_CHECK(
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, current_device()));
  return optin;
}

template <class T, int R, int K, bool EXACT>
void launch_blocked(const Conv2DArgs& a, T fill, size_t smem, dim3 grid, cudaStream_t stream) {
  auto kernel = conv2d_blocked_kernel<T, R, K, EXACT>;
  if (smem > kDefaultSmem) {  // allow up to the device's opt-in limit, once per device
    static std::mutex mu;
    static uint64_t done_mask = 0;
    const int dev = current_device();
    std::lock_guard<std::mutex> lock(mu);
    if (dev >= 64 || !(done_mask & (uint64_t(1) << dev))) {
      GPUARR_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             max_optin_smem()));
      if (dev < 64) done_mask |= uint64_t(1) << dev;
    }
  }
  kernel<<<grid, dim3(kBX, kBY), smem, stream>>>(a, fill);
  check_launch("conv2d_blocked_kernel");
}

// The blocked kernel with R rows per thread when it applies (returns false otherwise).
template <class T, int R>
bool try_launch_blocked(const Conv2DArgs& a, T fill, cudaStream_t stream) {
  // One output row (a 1-d problem): the tiled kernel's tile is half as tall.
  if (a.oh == 1) return false;
  const int64_t gx = (a.ow + kBX - 1) / kBX, gy = (a.oh + kBY * R - 1) / (kBY * R);
  if (gy > 65535 || gx >= (int64_t(1) << 31)) return false;
  const size_t smem = (size_t(kBY * R + a.kh - 1) * size_t(kBX + a.kw - 1) +
                       size_t(a.kh) * size_t(a.kw)) * sizeof(T);
  if (smem > size_t(max_optin_smem())) return false;
  const dim3 grid{static_cast<unsigned>(gx), static_cast<unsigned>(gy)};
  if constexpr (sizeof(T) <= 8) {
    switch (a.kh) {
      case 3: launch_blocked<T, R, 3, true>(a, fill, smem, grid, stream); return true;
      case 5: launch_blocked<T, R, 5, true>(a, fill, smem, grid, stream); return true;
      case 7: launch_blocked<T, R, 7, true>(a, fill, smem, grid, stream); return true;
      case 9: launch_blocked<T, R, 9, true>(a, fill, smem, grid, stream); return true;
      case 11: launch_blocked<T, R, 11, true>(a, fill, smem, grid, stream); return true;
      case 13: launch_blocked<T, R, 13, true>(a, fill, smem, grid, stream); return true;
      case 15: launch_blocked<T, R, 15, true>(a, fill, smem, grid, stream); return true;
      default: break;
    }
  }
  if (a.kh <= 4) {
    launch_blocked<T, R, 4, false>(a, fill, smem, grid, stream);
  } else {
    launch_blocked<T, R, 8, false>(a, fill, smem, grid, stream);
  }
  return true;
}

template <class T>
void launch_2d(const Conv2DArgs& a, T fill, cudaStream_t stream) {
  if (try_launch_blocked<T, blocked_rows<T>()>(a, fill, stream)) return;
  // Where the blocked kernel does not apply: the tiled one if its tile fits the default
  // shared memory, else one thread per output.
  constexpr int R = rows_per_thread<T>();
  const size_t smem = size_t(kTY * R + a.kh - 1) * size_t(kTX + a.kw - 1) * sizeof(T);
  const dim3 block(kTX, kTY);
  const int64_t gx = (a.ow + kTX - 1) / kTX, gy = (a.oh + kTY * R - 1) / (kTY * R);
  const bool tiled = smem <= kDefaultSmem && gy <= 65535 && gx < (int64_t(1) << 31);
  if (tiled) {
    const dim3 grid{static_cast<unsigned>(gx), static_cast<unsigned>(gy)};
    if (a.kh <= 4) {
      conv2d_tiled_kernel<T, R, 4><<<grid, block, smem, stream>>>(a, fill);
    } else if (a.kh <= 8) {
      conv2d_tiled_kernel<T, R, 8><<<grid, block, smem, stream>>>(a, fill);
    } else {
      conv2d_tiled_kernel<T, R, 16><<<grid, block, smem, stream>>>(a, fill);
    }
    check_launch("conv2d_tiled_kernel");
    return;
  }
  conv2d_generic_kernel<T><<<grid_for(a.oh * a.ow, 256), 256, 0, stream>>>(a, fill);
  check_launch("conv2d_generic_kernel");
}

template <class T>
void launch_1d(const NDArray& in, const NDArray& w, const NDArray& out, int64_t pad, T fill,
               cudaStream_t stream) {
  const int64_t n = in.shape[0], k = w.shape[0], out_len = out.shape[0];
  const int64_t s = in.strides[0] / int64_t(sizeof(T));
  const T* ip = reinterpret_cast<const T*>(in.data());
  const T* wp = reinterpret_cast<const T*>(w.data());
  T* op = reinterpret_cast<T*>(out.data());
  const size_t smem = size_t(k1DThreads * k1DRows + 2 * k - 1) * sizeof(T);
  if (smem <= kDefaultSmem) {
    constexpr int64_t span = k1DThreads * k1DRows;
    const int64_t blocks = (out_len + span - 1) / span;
    conv1d_tiled_kernel<T><<<dim3(unsigned(blocks)), k1DThreads, smem, stream>>>(
        ip, n, s, wp, int(k), op, out_len, pad, fill);
    check_launch("conv1d_tiled_kernel");
    return;
  }
  conv1d_generic_kernel<T><<<grid_for(out_len, 256), 256, 0, stream>>>(ip, n, s, wp, k, op,
                                                                      out_len, pad, fill);
  check_launch("conv1d_generic_kernel");
}

}  // namespace

NDArray correlate_direct(const NDArray& in, const NDArray& w, const Dims& out_shape,
                         const Dims& pad, ConvBoundary boundary, const void* fill) {
  const int64_t nd = in.ndim();
  if (nd < 1 || nd > 2 || w.ndim() != nd || int64_t(out_shape.size()) != nd ||
      int64_t(pad.size()) != nd) {
    throw ValueError("correlate_direct: 1-d or 2-d operands of equal ndim expected");
  }
  if (in.dtype != w.dtype) throw TypeError("correlate_direct: operands must share a dtype");
  if (in.dtype != DType::Float32 && in.dtype != DType::Float64 &&
      in.dtype != DType::Complex64 && in.dtype != DType::Complex128) {
    throw TypeError("correlate_direct: dtype must be float32, float64, complex64 or complex128");
  }
  if (!w.c_contiguous()) throw ValueError("correlate_direct: the filter must be C-contiguous");
  for (int64_t d = 0; d < nd; ++d) {
    if (in.strides[d] % in.itemsize() != 0) {
      throw ValueError("correlate_direct: input strides must be multiples of the itemsize");
    }
  }
  DeviceGuard guard(in.device());
  NDArray out = empty_array(out_shape, in.dtype, 'C');
  if (out.size() == 0) return out;
  if (in.size() == 0 || w.size() == 0) {  // nothing to read: every output is a sum of fills
    throw ValueError("correlate_direct: empty operand");
  }
  const cudaStream_t stream = stream_for(in);
  dispatch_dtype(in.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                  std::is_same_v<T, complex64_t> || std::is_same_v<T, complex128_t>) {
      T f;
      std::memcpy(&f, fill, sizeof(T));
      if (nd == 1 && boundary == ConvBoundary::Fill) {
        launch_1d<T>(in, w, out, pad[0], f, stream);
        return;
      }
      Conv2DArgs a{};
      a.in = in.data();
      a.h = nd == 2 ? in.shape[0] : 1;
      a.w = in.shape[nd - 1];
      a.sy = nd == 2 ? in.strides[0] / in.itemsize() : 0;
      a.sx = in.strides[nd - 1] / in.itemsize();
      a.filt = w.data();
      a.kh = nd == 2 ? int(w.shape[0]) : 1;
      a.kw = int(w.shape[nd - 1]);
      a.out = out.data();
      a.oh = nd == 2 ? out_shape[0] : 1;
      a.ow = out_shape[nd - 1];
      a.py = nd == 2 ? pad[0] : 0;
      a.px = pad[nd - 1];
      a.boundary = boundary;
      a.async_ok = reinterpret_cast<uintptr_t>(in.data()) % sizeof(T) == 0;
      launch_2d<T>(a, f, stream);
    }
  });
  return out;
}

}  // namespace gpuarr
