// A small persistent pool of host threads for the memcpy half of staged transfers: one
// thread cannot move pageable memory fast enough to keep the copy engine busy.
#pragma once
#include <functional>

namespace gpuarr {

// Runs task(0) ... task(n - 1) on the pool and the calling thread; returns when all are
// done. Tasks must not throw. Calls from several threads are serialised.
void parallel_for(int n, const std::function<void(int)>& task);

// Threads that parallel_for uses (GPUARR_TRANSFER_THREADS, default min(cores, 16)).
int transfer_threads();

// memcpy split over the pool.
void parallel_memcpy(void* dst, const void* src, size_t nbytes);

}  // namespace gpuarr
