// What the probes share: a status check that stops the probe, the median GPU time of a
// callable on the probe's stream `st` (one untimed call first), its mean time in a queue of
// calls, and a hash of an element's index for reproducible inputs.
#pragma once
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { auto s_ = (x); if ((int)s_ != 0) { printf("fail %s: %d\n", #x, (int)s_); exit(1);} } while (0)
inline cudaStream_t st;

// A hash of an element's index, the same on the host and the device (inputs the probe can
// also compute its expected results from).
__host__ __device__ inline uint32_t index_hash(int64_t i) {
  const uint32_t h = uint32_t(i) * 2654435761u;
  return h ^ (h >> 13);
}
inline float timed(std::function<void()> f, int reps) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  f(); cudaStreamSynchronize(st);
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) { cudaEventRecord(a, st); f(); cudaEventRecord(b, st); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms); }
  std::sort(t.begin(), t.end()); return t[t.size() / 2];
}

// Mean time a call of `calls` calls queued back to back between two events, the way a loop
// of calls runs (the surface sweep's timing).
inline float queued(const std::function<void()>& f, int calls) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a, st);
  for (int i = 0; i < calls; ++i) f();
  cudaEventRecord(b, st);
  cudaEventSynchronize(b);
  float ms;
  cudaEventElapsedTime(&ms, a, b);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return ms / calls;
}
