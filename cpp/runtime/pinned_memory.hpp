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

// True when `ptr` lies in page-locked (pinned or registered) host memory.
bool is_pinned_host_pointer(const void* ptr);

}  // namespace gpuarr
