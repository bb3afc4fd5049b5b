#include "runtime/transfer.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/config.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/pinned_memory.hpp"
#include "runtime/thread_pool.hpp"

namespace gpuarr {
namespace {

// Pinned buffers and the events that tell when the copy engine is done with each.
struct StagingArea {
  std::mutex mutex;
  std::vector<std::unique_ptr<PinnedMemory>> buffers;
  std::vector<cudaEvent_t> released;  // recorded after the last copy using the buffer

  StagingArea() {
    for (int i = 0; i < staging_buffers(); ++i) {
      buffers.emplace_back(new PinnedMemory(staging_chunk_bytes()));
      cudaEvent_t e;
      GPUARR_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
      released.push_back(e);
    }
  }
};

StagingArea& staging_area(int device) {
  static std::array<StagingArea*, kMaxDevices> areas{};  // leaked: used until exit
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  auto& a = areas[static_cast<size_t>(device)];
  if (!a) a = new StagingArea();
  return *a;
}

}  // namespace

void staged_upload(void* dst, size_t nbytes, cudaStream_t stream, const StagingFill& fill) {
  StagingArea& area = staging_area(current_device());
  std::lock_guard<std::mutex> lock(area.mutex);
  const size_t chunk = staging_chunk_bytes();
  const size_t nbuf = area.buffers.size();
  char* d = static_cast<char*>(dst);
  for (size_t off = 0, i = 0; off < nbytes; off += chunk, ++i) {
    const size_t b = i % nbuf, len = std::min(chunk, nbytes - off);
    char* buf = static_cast<char*>(area.buffers[b]->ptr());
    // The host writes the buffer: wait until the copy engine is done with it.
    GPUARR_CUDA_CHECK(cudaEventSynchronize(area.released[b]));
    fill(buf, off, len);
    GPUARR_CUDA_CHECK(cudaMemcpyAsync(d + off, buf, len, cudaMemcpyHostToDevice, stream));
    GPUARR_CUDA_CHECK(cudaEventRecord(area.released[b], stream));
  }
}

void staged_download(const void* src, size_t nbytes, cudaStream_t stream,
                     const StagingDrain& drain) {
  StagingArea& area = staging_area(current_device());
  std::lock_guard<std::mutex> lock(area.mutex);
  const size_t chunk = staging_chunk_bytes();
  const size_t nbuf = area.buffers.size();
  const size_t nchunks = (nbytes + chunk - 1) / chunk;
  const char* s = static_cast<const char*>(src);
  auto enqueue = [&](size_t i) {
    const size_t b = i % nbuf, off = i * chunk, len = std::min(chunk, nbytes - off);
    // The device writes the buffer: an upload on another stream may still be reading it.
    // Later rounds reuse buffers of this call, already ordered on `stream`.
    if (i < nbuf) GPUARR_CUDA_CHECK(cudaStreamWaitEvent(stream, area.released[b], 0));
    GPUARR_CUDA_CHECK(
        cudaMemcpyAsync(area.buffers[b]->ptr(), s + off, len, cudaMemcpyDeviceToHost, stream));
    GPUARR_CUDA_CHECK(cudaEventRecord(area.released[b], stream));
  };
  for (size_t i = 0; i < std::min(nbuf, nchunks); ++i) enqueue(i);
  for (size_t i = 0; i < nchunks; ++i) {
    const size_t b = i % nbuf, off = i * chunk, len = std::min(chunk, nbytes - off);
    GPUARR_CUDA_CHECK(cudaEventSynchronize(area.released[b]));
    drain(static_cast<const char*>(area.buffers[b]->ptr()), off, len);
    if (i + nbuf < nchunks) enqueue(i + nbuf);
  }
}

size_t staging_chunk_bytes() {
  static const size_t n = size_t(config::staging_chunk_mb.get()) << 20;
  return n;
}

int staging_buffers() {
  static const int n = static_cast<int>(config::staging_buffers.get());
  return n;
}

size_t staging_threshold() {
  static const size_t n = size_t(config::staging_threshold_kb.get()) << 10;
  return n;
}

void copy_host_to_device(void* dst, const void* src, size_t nbytes, cudaStream_t stream,
                         bool allow_async) {
  if (nbytes == 0) return;
  if (is_pinned_host_pointer(src)) {
    GPUARR_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyHostToDevice, stream));
    // The copy engine reads pinned memory later: wait unless the caller asked for async.
    if (!allow_async) GPUARR_CUDA_CHECK(cudaStreamSynchronize(stream));
  } else if (nbytes >= staging_threshold()) {
    const char* from = static_cast<const char*>(src);
    staged_upload(dst, nbytes, stream, [from](char* buf, size_t off, size_t len) {
      parallel_memcpy(buf, from + off, len);
    });
  } else {
    // From pageable memory the driver copies `src` into its own staging before returning.
    GPUARR_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyHostToDevice, stream));
  }
}

void copy_device_to_host(void* dst, const void* src, size_t nbytes, cudaStream_t stream,
                         bool allow_async) {
  if (nbytes == 0) return;
  if (is_pinned_host_pointer(dst)) {
    GPUARR_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToHost, stream));
    if (!allow_async) GPUARR_CUDA_CHECK(cudaStreamSynchronize(stream));
  } else if (nbytes >= staging_threshold()) {
    char* to = static_cast<char*>(dst);
    staged_download(src, nbytes, stream, [to](const char* buf, size_t off, size_t len) {
      parallel_memcpy(to + off, buf, len);
    });
  } else {
    // Into pageable memory cudaMemcpyAsync returns only once the copy has completed.
    GPUARR_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToHost, stream));
  }
}

}  // namespace gpuarr
