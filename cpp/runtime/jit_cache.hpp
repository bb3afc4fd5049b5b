// Compiled JIT modules, cached in memory (key -> loaded module) and on disk
// (GPUARR_CACHE_DIR or ~/.cache/gpuarr/kernels; key = sha256 of source, options, NVRTC
// version, architecture, gpuarr version and the shipped headers' contents). Modules are loaded and launched with the driver
// API (cuModuleLoadData, cuLaunchKernel), through driver_api.hpp.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace gpuarr {

struct JitFunction {
  void* function = nullptr;  // CUfunction
  std::string name;
  bool params_known = false;
  std::vector<size_t> param_sizes;  // valid when params_known
  // cuLaunchKernel on `stream` with `args` (pointers to each argument's bytes).
  void launch(dim3 grid, dim3 block, void** args, size_t shared_mem, cudaStream_t stream) const;
  // Allows more than 48 KiB of dynamic shared memory.
  void set_max_dynamic_shared(int bytes) const;
};

class JitModule {
 public:
  JitModule(std::string binary, bool cubin, std::vector<std::string> names,
            std::vector<std::string> lowered);
  ~JitModule();
  JitModule(const JitModule&) = delete;
  JitModule& operator=(const JitModule&) = delete;

  // The kernel `name` (an extern "C" name, a name expression given at compile time, or
  // a mangled name); cached. Throws CudaError when the module has no such kernel.
  const JitFunction& function(const std::string& name);
  bool cubin() const { return cubin_; }

 private:
  std::mutex mu_;
  std::string binary_;
  bool cubin_;
  std::vector<std::string> names_, lowered_;
  void* module_ = nullptr;  // CUmodule
  std::unordered_map<std::string, std::unique_ptr<JitFunction>> functions_;
};

// The module for (source, options) on the current device: memory cache, then disk cache,
// then NVRTC. Throws CompileError.
std::shared_ptr<JitModule> get_jit_module(const std::string& source,
                                          const std::vector<std::string>& options,
                                          const std::vector<std::string>& name_expressions);

// How many NVRTC compilations this process ran (cache misses of both levels).
int64_t jit_compile_count();
// The disk cache directory ("" when disabled).
std::string jit_cache_dir();
// Drops the in-memory cache (the disk cache stays).
void clear_jit_memory_cache();

}  // namespace gpuarr
