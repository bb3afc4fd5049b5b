// Device memory that arrays and their views share. Subclasses say how it is released:
// back to gpuarr's stream-ordered pool, or to a foreign owner (DLPack, CUDA array
// interface) in the interop layer.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

namespace gpuarr {

class Stream;

class Memory {
 public:
  Memory(void* ptr, size_t nbytes, int device) : ptr_(ptr), nbytes_(nbytes), device_(device) {}
  virtual ~Memory() = default;
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  void* ptr() const { return ptr_; }
  size_t nbytes() const { return nbytes_; }
  int device() const { return device_; }

 protected:
  void* ptr_;
  size_t nbytes_;
  int device_;
};

// Allocates `nbytes` on the current device in the current stream's order; freed in the
// same stream's order when the last view dies.
std::shared_ptr<Memory> allocate_device_memory(size_t nbytes);

}  // namespace gpuarr
