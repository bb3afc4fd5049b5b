#include "runtime/stream.hpp"

#include <array>
#include <string>

#include "runtime/cuda_check.hpp"
#include "runtime/deferred_work.hpp"
#include "runtime/device.hpp"
#include "runtime/memory_pool.hpp"

namespace gpuarr {
namespace {
// cudaStreamQuery / cudaEventQuery: "not ready" is an answer, not an error.
bool query_done(cudaError_t st, const char* call) {
  if (st == cudaErrorNotReady) {
    cudaGetLastError();
    return false;
  }
  check_cuda(st, call);
  return true;
}
}  // namespace

std::shared_ptr<Stream> Stream::create(bool non_blocking, int priority) {
  const int device = current_device();
  cudaStream_t h = nullptr;
  GPUARR_CUDA_CHECK(cudaStreamCreateWithPriority(
      &h, non_blocking ? cudaStreamNonBlocking : cudaStreamDefault, priority));
  return std::shared_ptr<Stream>(new Stream(h, device, true));
}

std::shared_ptr<Stream> Stream::borrow(cudaStream_t handle, int device) {
  return std::shared_ptr<Stream>(new Stream(handle, device, false));
}

Stream::~Stream() {
  // Small blocks cached for this handle go back to the pool first: a later stream may get
  // the same handle value and must not receive them.
  if (handle_) release_stream_blocks(handle_, device_);
  // Pending work still completes after cudaStreamDestroy; errors at interpreter exit
  // (driver already shut down) are ignored on purpose.
  if (owned_ && handle_) cudaStreamDestroy(handle_);
}

void Stream::synchronize() const {
  launch_all_deferred_work();
  GPUARR_CUDA_CHECK(cudaStreamSynchronize(handle_));
}

bool Stream::done() const { return query_done(cudaStreamQuery(handle_), "cudaStreamQuery"); }

namespace {
thread_local std::array<std::shared_ptr<Stream>, kMaxDevices> tls_current_streams;
}

const std::shared_ptr<Stream>& current_stream_ptr(int device) {
  return tls_current_streams[static_cast<size_t>(device)];
}

std::shared_ptr<Stream> exchange_current_stream(int device, std::shared_ptr<Stream> s) {
  // Deferred work goes to the stream that was current when it was deferred; launching it
  // before the switch keeps its order against what the new stream is told to wait for.
  launch_all_deferred_work();
  auto& slot = tls_current_streams[static_cast<size_t>(device)];
  std::swap(slot, s);
  return s;
}

Event::Event(bool timing, bool blocking) : device_(current_device()), timing_(timing) {
  unsigned flags = timing ? cudaEventDefault : cudaEventDisableTiming;
  if (blocking) flags |= cudaEventBlockingSync;
  GPUARR_CUDA_CHECK(cudaEventCreateWithFlags(&handle_, flags));
}

Event::~Event() {
  if (handle_) cudaEventDestroy(handle_);
}

void Event::record(cudaStream_t stream) {
  launch_all_deferred_work();  // an event marks everything enqueued so far
  GPUARR_CUDA_CHECK(cudaEventRecord(handle_, stream));
  recorded_ = true;
}

void Event::synchronize() const { GPUARR_CUDA_CHECK(cudaEventSynchronize(handle_)); }

bool Event::done() const { return query_done(cudaEventQuery(handle_), "cudaEventQuery"); }

float elapsed_ms(const Event& start, const Event& end) {
  if (!start.timing() || !end.timing()) {
    throw CudaError(cudaErrorInvalidResourceHandle,
                    "cudaEventElapsedTime failed: both events must be created with timing=True");
  }
  end.synchronize();
  float ms = 0;
  GPUARR_CUDA_CHECK(cudaEventElapsedTime(&ms, start.handle(), end.handle()));
  return ms;
}

}  // namespace gpuarr
