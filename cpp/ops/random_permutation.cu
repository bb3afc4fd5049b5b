// A random permutation of range(n) by Thrust's bijective shuffle (a 24-round Feistel
// cipher over the next power of two, compacted to [0, n) by one scan): one pass writing
// the result, where an argsort of random keys sorts 16 bytes an element eight times.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/shuffle.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system_error.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "core/errors.hpp"
#include "ops/array_ops.hpp"
#include "ops/random.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/memory.hpp"

namespace gpuarr {
namespace {

// Thrust's scratch from gpuarr's stream-ordered pool.
class PoolAllocator {
 public:
  using value_type = char;
  char* allocate(std::ptrdiff_t n) {
    std::shared_ptr<Memory> m = allocate_device_memory(static_cast<size_t>(n > 0 ? n : 1));
    char* p = static_cast<char*>(m->ptr());
    held_[p] = std::move(m);
    return p;
  }
  void deallocate(char* p, size_t) { held_.erase(p); }

 private:
  std::map<char*, std::shared_ptr<Memory>> held_;
};

// The cipher's round keys: 32-bit words of the call's Philox stream (element 0's blocks).
// Thrust's cipher only calls it (no min/max).
struct PhiloxWords {
  using result_type = uint32_t;
  ElemRng g;
  result_type operator()() { return g.next32(); }
};

}  // namespace

void random_permutation(const NDArray& out, PhiloxState s) {
  if (!out.c_contiguous() || out.dtype != DType::Int64)
    throw TypeError("random_permutation: output must be a C-contiguous int64 array");
  const int64_t n = out.size();
  if (n == 0) return;
  DeviceGuard guard(out.device());
  PoolAllocator scratch;
  try {
    thrust::shuffle_copy(thrust::cuda::par_nosync(scratch).on(stream_for(out)),
                         thrust::counting_iterator<int64_t>(0),
                         thrust::counting_iterator<int64_t>(n),
                         reinterpret_cast<int64_t*>(out.data()), PhiloxWords{ElemRng(s, 0)});
  } catch (const thrust::system_error& e) {
    throw CudaError(static_cast<cudaError_t>(e.code().value()),
                    std::string("thrust::shuffle_copy: ") + e.what());
  }
  check_cuda(cudaGetLastError(), "thrust::shuffle_copy");
}

}  // namespace gpuarr
