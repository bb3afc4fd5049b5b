#include "runtime/cuda_libraries.hpp"

#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <cusolver_common.h>
#include <dirent.h>
#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <utility>

#include "runtime/cuda_check.hpp"

// Set by CMakeLists.txt for this file: the toolkit the build used, the last place searched.
#ifndef GPUARR_CUDA_TOOLKIT_LIBRARY_DIR
#define GPUARR_CUDA_TOOLKIT_LIBRARY_DIR ""
#endif

namespace gpuarr {
namespace {

constexpr int kCudaMajor = CUDART_VERSION / 1000;

std::string soname(const char* stem, int major) {
  return std::string("lib") + stem + ".so." + std::to_string(major);
}

// Sonames from the headers the calls were compiled against: a library of another major
// version has another ABI.
const CudaLibraryInfo* libraries() {
  static const CudaLibraryInfo* table = new CudaLibraryInfo[kCudaLibraryCount]{
      {"cublas", "cuBLAS", soname("cublas", CUBLAS_VER_MAJOR),
       "matrix products (matmul, dot, einsum) and linear algebra", "nvidia-cublas", "cublas"},
      {"cusolver", "cuSOLVER", soname("cusolver", CUSOLVER_VER_MAJOR),
       "linear algebra (solve, inv, det, cholesky, qr, svd, eigh, eig)", "nvidia-cusolver",
       "cusolver"},
      {"cufft", "cuFFT", soname("cufft", CUFFT_VER_MAJOR), "FFTs (gpuarr.fft, FFT convolution)",
       "nvidia-cufft", "cufft"},
      {"nvrtc", "NVRTC", soname("nvrtc", kCudaMajor),
       "compiling generated kernels (fuse, ElementwiseKernel, RawKernel)", "nvidia-cuda-nvrtc",
       "cuda_nvrtc", "libnvrtc-builtins.so."},
  };
  return table;
}

struct Slot {
  std::mutex mutex;
  std::atomic<void*> handle{nullptr};
  std::string path;  // written once, before `handle` is published
};

// Never destroyed: library calls may come from threads still running at exit.
Slot& slot(CudaLibrary lib) {
  static Slot* slots = new Slot[kCudaLibraryCount];
  return slots[static_cast<int>(lib)];
}

std::mutex g_search_mutex;
CudaLibrarySearch& search_settings() {
  static auto* s = [] {
    auto* out = new CudaLibrarySearch;
    out->cuda_major = kCudaMajor;
    out->toolkit_lib_dir = GPUARR_CUDA_TOOLKIT_LIBRARY_DIR;
    return out;
  }();
  return *s;
}

std::string loaded_from(void* handle, const std::string& fallback) {
  link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name)
    return map->l_name;
  return fallback;
}

std::vector<std::string> directory_entries(const std::string& file) {
  std::vector<std::string> out;
  const auto slash = file.rfind('/');
  if (slash == std::string::npos) return out;
  if (DIR* d = opendir(file.substr(0, slash + 1).c_str())) {
    while (const dirent* e = readdir(d)) out.emplace_back(e->d_name);
    closedir(d);
  }
  return out;
}

// The companion the library will dlopen by soname (cuda_library_companion), loaded now from
// the library's own directory and kept loaded. Best effort: without it the library's own
// search applies, as it would without gpuarr.
void load_companion(const CudaLibraryInfo& info, const std::string& path) {
  const std::string companion = cuda_library_companion(info, path, directory_entries(path));
  if (!companion.empty()) dlopen(companion.c_str(), RTLD_LAZY | RTLD_LOCAL);
}

void* open_library(const CudaLibraryInfo& info, std::string& path) {
  CudaLibrarySearch search;
  {
    std::lock_guard<std::mutex> lock(g_search_mutex);
    search = search_settings();
  }
  using Kind = CudaLibraryCandidate::Kind;
  std::vector<std::pair<std::string, std::string>> failures;
  for (const CudaLibraryCandidate& c : cuda_library_candidates(info, search)) {
    if (c.kind == Kind::File && access(c.path.c_str(), F_OK) != 0) continue;
    const int flags = RTLD_LAZY | RTLD_LOCAL | (c.kind == Kind::AlreadyLoaded ? RTLD_NOLOAD : 0);
    dlerror();
    if (void* h = dlopen(c.path.c_str(), flags)) {
      path = loaded_from(h, c.path);
      load_companion(info, path);
      return h;
    }
    const char* err = dlerror();
    const std::string error = err ? err : "unknown error";
    if (c.kind == Kind::AlreadyLoaded) continue;
    // The system's search not finding the file itself is no news; one of its dependencies
    // missing is.
    if (c.kind == Kind::System && error.rfind(c.path + ": cannot open shared object file", 0) == 0)
      continue;
    failures.emplace_back(c.kind == Kind::System ? c.path + " (system search)" : c.path, error);
  }
  throw LibraryLoadError(cudaErrorSharedObjectInitFailed,
                         cuda_library_not_found_message(info, search, failures));
}

void* library_handle(CudaLibrary lib) {
  Slot& s = slot(lib);
  if (void* h = s.handle.load(std::memory_order_acquire)) return h;
  std::lock_guard<std::mutex> lock(s.mutex);
  if (void* h = s.handle.load(std::memory_order_relaxed)) return h;
  // A failure is not remembered: a later call searches again (after a pip install, say).
  void* h = open_library(cuda_library_info(lib), s.path);
  s.handle.store(h, std::memory_order_release);
  return h;
}

}  // namespace

const CudaLibraryInfo& cuda_library_info(CudaLibrary lib) {
  return libraries()[static_cast<int>(lib)];
}

std::string load_cuda_library(CudaLibrary lib) {
  library_handle(lib);
  return slot(lib).path;
}

std::string cuda_library_path(CudaLibrary lib) {
  Slot& s = slot(lib);
  return s.handle.load(std::memory_order_acquire) ? s.path : std::string();
}

void* cuda_library_find_function(CudaLibrary lib, const char* name) {
  return dlsym(library_handle(lib), name);
}

void* cuda_library_function(CudaLibrary lib, const char* name) {
  if (void* f = cuda_library_find_function(lib, name)) return f;
  throw LibraryLoadError(cudaErrorSharedObjectSymbolNotFound,
                         cuda_library_missing_function_message(
                             cuda_library_info(lib), cuda_library_path(lib), name, kCudaMajor));
}

void set_cuda_library_python_paths(std::vector<std::string> paths) {
  std::lock_guard<std::mutex> lock(g_search_mutex);
  search_settings().python_paths = std::move(paths);
}

void set_cuda_library_search(std::vector<std::string> python_paths, bool system, bool toolkit) {
  std::lock_guard<std::mutex> lock(g_search_mutex);
  CudaLibrarySearch& s = search_settings();
  s.python_paths = std::move(python_paths);
  s.system = system;
  s.toolkit_lib_dir = toolkit ? GPUARR_CUDA_TOOLKIT_LIBRARY_DIR : "";
}

}  // namespace gpuarr
