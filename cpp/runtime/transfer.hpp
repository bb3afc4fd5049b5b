// Host <-> device copies of contiguous bytes. Large pageable copies go through a pipeline
// of pinned staging buffers (one pool per device, shared by every staged transfer): host
// threads copy one chunk while the copy engine moves the previous one. Pinned host memory
// is copied directly. The .npy reader and writer use the same pipeline with files at the
// host end.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>

namespace gpuarr {

// Enqueues a copy on `stream` and returns once `src` may be reused, except that a
// pinned `src` with allow_async is only enqueued. Call without the GIL.
void copy_host_to_device(void* dst, const void* src, size_t nbytes, cudaStream_t stream,
                         bool allow_async);

// Copies device memory to the host, in `stream`'s order, and returns when `dst` holds
// the data, except that a pinned `dst` with allow_async is only enqueued.
void copy_device_to_host(void* dst, const void* src, size_t nbytes, cudaStream_t stream,
                         bool allow_async);

// The staging pipeline with any host end. Chunks are [off, off + len) with off a multiple
// of staging_chunk_bytes() (a whole number of MiB, so chunks split arrays of any dtype at
// element boundaries) and len at most that. Each call holds the current device's pool
// until it returns, and a fill or drain may wait for the GIL (a Python file object), so
// enter the pipeline (and the copies above, when they stage) without holding the GIL.
// An exception from fill or drain ends the call and propagates; copies already enqueued
// stay in flight and the pool's events keep their buffers.
//
// staged_upload: for each chunk in order, waits for a free buffer, has fill(buffer, off,
// len) write it, and enqueues its copy to dst + off on `stream`; returns without waiting
// for the last copies (dst is ready in `stream`'s order).
using StagingFill = std::function<void(char* buffer, size_t off, size_t len)>;
void staged_upload(void* dst, size_t nbytes, cudaStream_t stream, const StagingFill& fill);

// staged_download: enqueues copies of src's chunks into the buffers ahead on `stream` and
// calls drain(buffer, off, len) for each chunk in order once it has arrived.
using StagingDrain = std::function<void(const char* buffer, size_t off, size_t len)>;
void staged_download(const void* src, size_t nbytes, cudaStream_t stream,
                     const StagingDrain& drain);

// Staging parameters (GPUARR_STAGING_CHUNK_MB, GPUARR_STAGING_BUFFERS); copies below
// staging_threshold() bytes use cudaMemcpyAsync straight from pageable memory.
size_t staging_chunk_bytes();
int staging_buffers();
size_t staging_threshold();

}  // namespace gpuarr
