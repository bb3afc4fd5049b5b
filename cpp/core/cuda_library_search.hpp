// Where gpuarr looks for the CUDA libraries it loads on first use (cuBLAS, cuSOLVER, cuFFT,
// NVRTC), and what it tells a user when one cannot be found. Plain C++: the runtime
// (runtime/cuda_libraries) supplies the facts (sys.path, the CUDA major version, the toolkit
// directory), walks these candidates with dlopen and reports the failures back here for the
// message (cpp/tests/test_cuda_library_search.cpp).
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace gpuarr {

struct CudaLibraryInfo {
  const char* key;          // "cublas": gpuarr.cuda.library_paths()'s key
  const char* name;         // "cuBLAS"
  std::string soname;       // "libcublas.so.13"
  const char* purpose;      // what gpuarr uses it for, for the message
  const char* pip_package;  // "nvidia-cublas"
  const char* wheel_dir;    // "cublas": nvidia/cublas/lib, the layout of older wheels
  // A library it opens itself at run time, by soname, from no directory of its own: NVRTC
  // dlopens "libnvrtc-builtins.so.<major>.<minor>", which the system's search finds only in
  // a toolkit registered with ld.so (not in NVIDIA's wheels). nullptr for none.
  const char* companion_prefix = nullptr;  // "libnvrtc-builtins.so."
};

struct CudaLibrarySearch {
  std::vector<std::string> python_paths;  // sys.path; relative and empty entries are skipped
  int cuda_major = 0;                     // wheels of CUDA 13 install into nvidia/cu13/lib
  bool system = true;                     // the dynamic linker's own search (plain soname)
  std::string toolkit_lib_dir;            // the build's toolkit; "" for none
};

struct CudaLibraryCandidate {
  enum class Kind {
    AlreadyLoaded,  // a copy some other code loaded into the process (matched by soname)
    File,           // a path to try only when the file exists
    System,         // the soname: LD_LIBRARY_PATH, /etc/ld.so.cache, the default directories
  };
  Kind kind;
  std::string path;  // the soname for AlreadyLoaded and System
  bool operator==(const CudaLibraryCandidate& o) const { return kind == o.kind && path == o.path; }
};

// In order: a copy already in the process; nvidia/cu<major>/lib and nvidia/<wheel_dir>/lib
// under each absolute sys.path entry (NVIDIA's pip wheels); the system's search; the toolkit
// gpuarr was built with. No duplicates.
std::vector<CudaLibraryCandidate> cuda_library_candidates(const CudaLibraryInfo& lib,
                                                          const CudaLibrarySearch& search);

// The companion of a library loaded from `loaded_path` (lib.companion_prefix): the file of
// that directory (`entries`: its file names) named prefix + version with the fewest
// version parts, its soname ("libnvrtc-builtins.so.13.0", not "...so.13.0.88"); "" for
// none. gpuarr loads it from there first, so that the library's own dlopen of the soname
// finds the copy beside it instead of searching the system.
std::string cuda_library_companion(const CudaLibraryInfo& lib, const std::string& loaded_path,
                                   const std::vector<std::string>& entries);

// The message of a library that could not be loaded: what it is for, how to install it,
// where gpuarr looked, and each candidate that was there but failed (path, dlopen's error).
std::string cuda_library_not_found_message(
    const CudaLibraryInfo& lib, const CudaLibrarySearch& search,
    const std::vector<std::pair<std::string, std::string>>& failures);

// The message of a loaded library that lacks a function gpuarr calls (an older release).
std::string cuda_library_missing_function_message(const CudaLibraryInfo& lib,
                                                  const std::string& path,
                                                  const std::string& function, int cuda_major);

}  // namespace gpuarr
