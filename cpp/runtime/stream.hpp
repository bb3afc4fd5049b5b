// CUDA streams and events, and the current stream of each thread (per device), which
// every gpuarr operation is enqueued on.
#pragma once
#include <cuda_runtime_api.h>

#include <memory>

namespace gpuarr {

class Stream {
 public:
  // A new stream on the current device; non_blocking streams do not wait for the legacy
  // default stream.
  static std::shared_ptr<Stream> create(bool non_blocking, int priority = 0);
  // Borrows an existing handle (the legacy null stream, per-thread stream, or a stream a
  // foreign library owns); never destroyed by gpuarr.
  static std::shared_ptr<Stream> borrow(cudaStream_t handle, int device);

  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t handle() const { return handle_; }
  int device() const { return device_; }  // -1: any device (the legacy null stream)
  void synchronize() const;               // caller releases the GIL
  bool done() const;

 private:
  Stream(cudaStream_t h, int device, bool owned) : handle_(h), device_(device), owned_(owned) {}
  cudaStream_t handle_;
  int device_;
  bool owned_;
};

// The current stream of this thread for the current device; nullptr means the legacy
// default stream (handle 0).
const std::shared_ptr<Stream>& current_stream_ptr(int device);
inline cudaStream_t current_stream_handle(int device) {
  const auto& s = current_stream_ptr(device);
  return s ? s->handle() : nullptr;
}
// Sets this thread's current stream for `device`; returns the previous one.
std::shared_ptr<Stream> exchange_current_stream(int device, std::shared_ptr<Stream> s);

class Event {
 public:
  Event(bool timing, bool blocking);
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  cudaEvent_t handle() const { return handle_; }
  int device() const { return device_; }
  bool timing() const { return timing_; }
  void record(cudaStream_t stream);
  void synchronize() const;  // caller releases the GIL
  bool done() const;
  bool recorded() const { return recorded_; }

 private:
  cudaEvent_t handle_ = nullptr;
  int device_;
  bool timing_;
  bool recorded_ = false;
};

// Milliseconds between two recorded events (waits for `end`).
float elapsed_ms(const Event& start, const Event& end);

}  // namespace gpuarr
