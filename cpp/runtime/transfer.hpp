// Host <-> device copies of contiguous bytes. Large pageable copies go through a pipeline
// of pinned staging buffers: host threads copy one chunk while the copy engine moves the
// previous one. Pinned host memory is copied directly.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpuarr {

// Enqueues a copy on `stream` and returns once `src` may be reused, except that a
// pinned `src` with allow_async is only enqueued. Call without the GIL.
void copy_host_to_device(void* dst, const void* src, size_t nbytes, cudaStream_t stream,
                         bool allow_async);

// Copies device memory to the host, in `stream`'s order, and returns when `dst` holds
// the data, except that a pinned `dst` with allow_async is only enqueued.
void copy_device_to_host(void* dst, const void* src, size_t nbytes, cudaStream_t stream,
                         bool allow_async);

// Staging parameters (GPUARR_STAGING_CHUNK_MB, GPUARR_STAGING_BUFFERS); copies below
// staging_threshold() bytes use cudaMemcpyAsync straight from pageable memory.
size_t staging_chunk_bytes();
int staging_buffers();
size_t staging_threshold();

}  // namespace gpuarr
