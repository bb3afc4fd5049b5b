// The reduction probes' kernel arguments, as ops/reduce_launch.cpp lays them out: a
// whole-array reduction of n contiguous elements in `chunks` chunks (64-element aligned,
// the library's rounding), and the pass over its partial accumulators.
#pragma once
#include <algorithm>
#include <cstdint>

#include "ops/reduce_launch.hpp"

template <class T>
gpuarr::ReduceArgs whole_array_args(const T* in, int64_t n, int64_t chunks) {
  gpuarr::ReduceArgs a{};
  a.in = reinterpret_cast<const char*>(in);
  a.nr = 1;
  a.rshape[0] = n;
  a.rstride[0] = sizeof(T);
  a.n_out = 1;
  a.n_reduce = n;
  a.contiguous_reduce = true;
  a.chunk_len = std::max<int64_t>(64, ((n + chunks - 1) / chunks + 63) / 64 * 64);
  a.chunks = (n + a.chunk_len - 1) / a.chunk_len;
  return a;
}

template <class Acc>
gpuarr::ReduceArgs partials_args(const Acc* partial, int64_t chunks) {
  gpuarr::ReduceArgs b{};
  b.in = reinterpret_cast<const char*>(partial);
  b.nk = 1;
  b.nr = 1;
  b.kshape[0] = 1;
  b.kstride[0] = int64_t(sizeof(Acc)) * chunks;
  b.rshape[0] = chunks;
  b.rstride[0] = sizeof(Acc);
  b.n_out = 1;
  b.n_reduce = chunks;
  b.chunks = 1;
  b.chunk_len = chunks;
  b.contiguous_reduce = true;
  return b;
}
