// Page-locked host memory: the copy engine reads and writes it directly, so transfers
// from and to it run at the bus's speed and can be asynchronous.
#pragma once
#include <cstddef>
#include <memory>

namespace gpuarr {

class PinnedMemory {
 public:
  explicit PinnedMemory(size_t nbytes);  // cudaHostAlloc (portable to all devices)
  ~PinnedMemory();
  PinnedMemory(const PinnedMemory&) = delete;
  PinnedMemory& operator=(const PinnedMemory&) = delete;

  void* ptr() const { return ptr_; }
  size_t nbytes() const { return nbytes_; }

 private:
  void* ptr_ = nullptr;
  size_t nbytes_;
};

// A page-locked buffer that grows on demand and is kept (freeing it waits for the device,
// so it is reused rather than reallocated). Declare one `thread_local` per call site: a
// caller must have finished its asynchronous use before its thread asks again.
class GrowingPinnedBuffer {
 public:
  void* get(size_t nbytes);

 private:
  std::unique_ptr<PinnedMemory> mem_;
};

// True when `ptr` lies in page-locked (pinned or registered) host memory.
bool is_pinned_host_pointer(const void* ptr);

}  // namespace gpuarr
