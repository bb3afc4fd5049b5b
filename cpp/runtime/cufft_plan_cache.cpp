#include "runtime/cufft_plan_cache.hpp"

#include <list>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"

namespace gpuarr {

[[noreturn]] void throw_cufft_error(cufftResult status, const char* call) {
  if (status == CUFFT_ALLOC_FAILED) {
    throw OutOfMemoryError(std::string("cuFFT could not allocate memory in ") + call);
  }
  const char* name = "CUFFT_UNKNOWN_ERROR";
  switch (status) {
    case CUFFT_INVALID_PLAN: name = "CUFFT_INVALID_PLAN"; break;
    case CUFFT_INVALID_TYPE: name = "CUFFT_INVALID_TYPE"; break;
    case CUFFT_INVALID_VALUE: name = "CUFFT_INVALID_VALUE"; break;
    case CUFFT_INTERNAL_ERROR: name = "CUFFT_INTERNAL_ERROR"; break;
    case CUFFT_EXEC_FAILED: name = "CUFFT_EXEC_FAILED"; break;
    case CUFFT_SETUP_FAILED: name = "CUFFT_SETUP_FAILED"; break;
    case CUFFT_INVALID_SIZE: name = "CUFFT_INVALID_SIZE"; break;
    case CUFFT_UNALIGNED_DATA: name = "CUFFT_UNALIGNED_DATA"; break;
    case CUFFT_INVALID_DEVICE: name = "CUFFT_INVALID_DEVICE"; break;
    case CUFFT_NO_WORKSPACE: name = "CUFFT_NO_WORKSPACE"; break;
    case CUFFT_NOT_IMPLEMENTED: name = "CUFFT_NOT_IMPLEMENTED"; break;
    case CUFFT_NOT_SUPPORTED: name = "CUFFT_NOT_SUPPORTED"; break;
    default: break;
  }
  throw CufftError(status, std::string(call) + " failed: " + name + " (" +
                               std::to_string(int(status)) + ")");
}

CufftPlan::~CufftPlan() {
  if (handle) cufftDestroy(handle);  // status ignored: may run at exit
}

namespace {

using Key = std::tuple<int, int, std::vector<int64_t>, int64_t>;  // device, type, dims, batch
constexpr size_t kMaxPlans = 32;

std::mutex g_mutex;
// Most recently used first.
std::list<std::pair<Key, std::shared_ptr<CufftPlan>>>& cache() {
  static auto* c = new std::list<std::pair<Key, std::shared_ptr<CufftPlan>>>();
  return *c;
}

std::shared_ptr<CufftPlan> make_plan(cufftType type, const std::vector<int64_t>& dims,
                                     int64_t batch) {
  const int rank = static_cast<int>(dims.size());
  if (rank < 1 || rank > 3) throw std::invalid_argument("cuFFT plans have rank 1 to 3");
  auto plan = std::make_shared<CufftPlan>();
  GPUARR_CUFFT_CHECK(cufftCreate(&plan->handle));
  GPUARR_CUFFT_CHECK(cufftSetAutoAllocation(plan->handle, 0));
  long long n[3], in_embed[3], out_embed[3];
  for (int d = 0; d < rank; ++d) n[d] = in_embed[d] = out_embed[d] = dims[d];
  const long long half = dims[rank - 1] / 2 + 1;
  if (type == CUFFT_R2C || type == CUFFT_D2Z) out_embed[rank - 1] = half;
  if (type == CUFFT_C2R || type == CUFFT_Z2D) in_embed[rank - 1] = half;
  long long in_dist = 1, out_dist = 1;
  for (int d = 0; d < rank; ++d) {
    in_dist *= in_embed[d];
    out_dist *= out_embed[d];
  }
  size_t ws = 0;
  GPUARR_CUFFT_CHECK(cufftMakePlanMany64(plan->handle, rank, n, in_embed, 1, in_dist,
                                         out_embed, 1, out_dist, type,
                                         static_cast<long long>(batch), &ws));
  plan->work_size = ws;
  return plan;
}

}  // namespace

std::shared_ptr<CufftPlan> cufft_plan_1d(cufftType type, int64_t n, int64_t batch) {
  return cufft_plan_nd(type, {n}, batch);
}

std::shared_ptr<CufftPlan> cufft_plan_nd(cufftType type, const std::vector<int64_t>& dims,
                                         int64_t batch) {
  const Key key{current_device(), int(type), dims, batch};
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto& c = cache();
    for (auto it = c.begin(); it != c.end(); ++it) {
      if (it->first == key) {
        c.splice(c.begin(), c, it);
        return c.front().second;
      }
    }
  }
  auto plan = make_plan(type, dims, batch);
  std::lock_guard<std::mutex> lock(g_mutex);
  auto& c = cache();
  c.emplace_front(key, plan);
  while (c.size() > kMaxPlans) c.pop_back();  // in-use plans live on through shared_ptr
  return plan;
}

std::shared_ptr<Memory> cufft_bind(CufftPlan& plan, cudaStream_t stream) {
  GPUARR_CUFFT_CHECK(cufftSetStream(plan.handle, stream));
  std::shared_ptr<Memory> work;
  if (plan.work_size > 0) {
    work = allocate_device_memory(plan.work_size);
    GPUARR_CUFFT_CHECK(cufftSetWorkArea(plan.handle, work->ptr()));
  }
  return work;
}

size_t cufft_plan_cache_size() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return cache().size();
}

void cufft_plan_cache_clear() {
  std::lock_guard<std::mutex> lock(g_mutex);
  cache().clear();
}

}  // namespace gpuarr
