// NVRTC: compiles CUDA C++ source at run time to CUBIN (or PTX for an architecture this
// NVRTC cannot emit machine code for). Used only by user kernels and fused kernels.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuarr {

// A failed NVRTC compilation (Python: gpuarr.cuda.CompileError). what() holds NVRTC's
// log followed by the source with line numbers.
class CompileError : public std::runtime_error {
 public:
  CompileError(const std::string& what, std::string log)
      : std::runtime_error(what), log_(std::move(log)) {}
  const std::string& log() const { return log_; }

 private:
  std::string log_;
};

struct CompiledProgram {
  std::string binary;                 // CUBIN or PTX (NUL-terminated text)
  bool cubin = false;
  std::vector<std::string> lowered;   // mangled names of the name expressions, in order
  std::string log;
};

// NVRTC's version as major*1000 + minor*10.
int nvrtc_version();
// "-arch" option for a device of compute capability `cc` (major*10+minor): sm_XY when this
// NVRTC supports it (CUBIN), else compute_XY of the newest supported arch <= cc (PTX).
std::string nvrtc_arch_option(int cc);
// The toolkit's include directory found at run time (CUDA_PATH, CUDA_HOME,
// /usr/local/cuda), or "" when none exists.
std::string toolkit_include_dir();
// The directory whose gpuarr/ holds the headers that generated kernels include
// (gpuarr/ufunc_math.cuh and its neighbours): <package>/include where the wheel installs
// them next to the extension module, else the source tree's cpp/include when the module
// runs from a checkout (python/gpuarr/); "" when neither exists.
std::string package_include_dir();
// sha256 of the names and contents of the files in package_include_dir()/gpuarr, read once:
// part of the JIT cache key, so that a kernel compiled against other headers is not reused.
const std::string& package_headers_digest();
// The -I options of a compile: the package headers, and with `toolkit` the toolkit's
// include directory and its libcu++ directory (include/cccl) where they exist.
std::vector<std::string> include_options(bool toolkit);
// The source with "%4d " line numbers, as shown in compile errors.
std::string number_lines(const std::string& source);

// Compiles `source` with `options` (the caller adds the arch option). Throws CompileError.
CompiledProgram nvrtc_compile(const std::string& source, const std::string& name,
                              const std::vector<std::string>& options,
                              const std::vector<std::string>& name_expressions);

}  // namespace gpuarr
