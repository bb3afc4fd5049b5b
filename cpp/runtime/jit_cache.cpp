#include "runtime/jit_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "core/file_io.hpp"
#include "core/sha256.hpp"
#include "runtime/config.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/driver_api.hpp"
#include "runtime/nvrtc_compiler.hpp"

#ifndef GPUARR_VERSION_STRING
#define GPUARR_VERSION_STRING "0.1.0"
#endif

namespace gpuarr {
namespace {

std::atomic<int64_t> g_compile_count{0};

std::mutex& cache_mutex() {
  static auto* m = new std::mutex;
  return *m;
}
std::unordered_map<std::string, std::shared_ptr<JitModule>>& memory_cache() {
  static auto* c = new std::unordered_map<std::string, std::shared_ptr<JitModule>>;
  return *c;
}

// The disk cache uses C stdio, not iostreams: on the GPU machine's build the iostream
// number formatting crashed the process (a libstdc++ locale facet never initialised).
void make_dirs(const std::string& path) {
  std::string cur = (!path.empty() && path[0] == '/') ? "/" : "";
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    if (end > start) {
      cur += path.substr(start, end - start) + "/";
      mkdir(cur.c_str(), 0755);
    }
    start = end + 1;
  }
}

// Disk format: "GAJIT1 <cubin> <n>\n", n lowered names one per line, then the binary.
bool read_disk(const std::string& file, CompiledProgram& prog, size_t n_names) {
  std::string data;
  if (!append_file_contents(file, data)) return false;
  size_t pos = data.find('\n');
  if (pos == std::string::npos) return false;
  const std::string header = data.substr(0, pos);
  const std::string want = "GAJIT1 ";
  if (header.compare(0, want.size(), want) != 0 || header.size() < want.size() + 3) return false;
  const char cubin = header[want.size()];
  if ((cubin != '0' && cubin != '1') || header[want.size() + 1] != ' ') return false;
  if (header.substr(want.size() + 2) != std::to_string(n_names)) return false;
  prog.lowered.clear();
  ++pos;
  for (size_t i = 0; i < n_names; ++i) {
    const size_t end = data.find('\n', pos);
    if (end == std::string::npos) return false;
    prog.lowered.push_back(data.substr(pos, end - pos));
    pos = end + 1;
  }
  prog.binary = data.substr(pos);
  prog.cubin = cubin == '1';
  return !prog.binary.empty();
}

void write_disk(const std::string& dir, const std::string& file, const CompiledProgram& prog) {
  make_dirs(dir);
  std::random_device rd;
  const std::string tmp =
      file + "." + std::to_string(getpid()) + "." + std::to_string(rd()) + ".tmp";
  std::string data = "GAJIT1 " + std::string(prog.cubin ? "1" : "0") + " " +
                     std::to_string(prog.lowered.size()) + "\n";
  for (const auto& l : prog.lowered) data += l + "\n";
  data += prog.binary;
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) return;
  const bool ok = std::fwrite(data.data(), 1, data.size(), f) == data.size();
  if (std::fclose(f) != 0 || !ok) {
    std::remove(tmp.c_str());
    return;
  }
  if (std::rename(tmp.c_str(), file.c_str()) != 0) std::remove(tmp.c_str());
}

}  // namespace

std::string jit_cache_dir() {
  if (std::string d = config::cache_dir.get(); !d.empty()) return d;
  const char* home = std::getenv("HOME");
  if (!home || !*home) return "";
  return std::string(home) + "/.cache/gpuarr/kernels";
}

int64_t jit_compile_count() { return g_compile_count.load(); }

void clear_jit_memory_cache() {
  std::lock_guard<std::mutex> lock(cache_mutex());
  memory_cache().clear();
}

void JitFunction::launch(dim3 grid, dim3 block, void** args, size_t shared_mem,
                         cudaStream_t stream) const {
  driver_check(driver().launch_kernel(function, grid.x, grid.y, grid.z, block.x, block.y,
                                      block.z, static_cast<unsigned>(shared_mem), stream, args,
                                      nullptr),
               "cuLaunchKernel");
}

void JitFunction::set_max_dynamic_shared(int bytes) const {
  constexpr int kMaxDynamicSharedSizeBytes = 8;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
  driver_check(driver().func_set_attribute(function, kMaxDynamicSharedSizeBytes, bytes),
               "cuFuncSetAttribute");
}

JitModule::JitModule(std::string binary, bool cubin, std::vector<std::string> names,
                     std::vector<std::string> lowered)
    : binary_(std::move(binary)), cubin_(cubin), names_(std::move(names)),
      lowered_(std::move(lowered)) {
  GPUARR_CUDA_CHECK(cudaFree(nullptr));  // the runtime makes the device's context current
  driver_check(driver().module_load_data(&module_, binary_.data()), "cuModuleLoadData");
}

// Modules stay loaded for the life of the process (the context frees them); unloading at
// exit could run after the context is gone.
JitModule::~JitModule() = default;

const JitFunction& JitModule::function(const std::string& name) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = functions_.find(name);
  if (it != functions_.end()) return *it->second;
  std::string symbol = name;
  for (size_t i = 0; i < names_.size() && i < lowered_.size(); ++i)
    if (names_[i] == name) symbol = lowered_[i];
  auto f = std::make_unique<JitFunction>();
  f->name = name;
  const int r = driver().module_get_function(&f->function, module_, symbol.c_str());
  if (r != 0) {
    throw CudaError(cudaErrorSymbolNotFound,
                    "cuModuleGetFunction failed: the module has no kernel named '" + name + "'");
  }
  // Parameter sizes, for argument checks; unknown when the driver cannot say (< 12.4).
  f->params_known = driver().func_get_param_info != nullptr;
  for (size_t i = 0; f->params_known && i <= 4096; ++i) {
    size_t offset = 0, size = 0;
    const int res = driver().func_get_param_info(f->function, i, &offset, &size);
    if (res == 1) break;  // CUDA_ERROR_INVALID_VALUE: past the last parameter
    if (res != 0) {
      f->params_known = false;
      f->param_sizes.clear();
      break;
    }
    f->param_sizes.push_back(size);
  }
  auto& ref = *f;
  functions_.emplace(name, std::move(f));
  return ref;
}

std::shared_ptr<JitModule> get_jit_module(const std::string& source,
                                          const std::vector<std::string>& options,
                                          const std::vector<std::string>& name_expressions) {
  require_device();
  const int device = current_device();
  const int cc = compute_capability(device);
  std::vector<std::string> opts;
  bool has_arch = false;
  for (const auto& o : options)
    if (o.rfind("-arch", 0) == 0 || o.rfind("--gpu-architecture", 0) == 0) has_arch = true;
  if (!has_arch) opts.push_back(nvrtc_arch_option(cc));
  opts.push_back("-std=c++17");
  for (std::string& inc : include_options(true)) opts.push_back(std::move(inc));
  opts.insert(opts.end(), options.begin(), options.end());

  std::string key_text = source;
  for (const auto& o : opts) key_text += std::string("\x01") + o;
  for (const auto& e : name_expressions) key_text += std::string("\x02") + e;
  key_text += "\x03nvrtc=" + std::to_string(nvrtc_version()) + "\x03" "cc=" + std::to_string(cc) +
              "\x03gpuarr=" GPUARR_VERSION_STRING "\x03headers=" + package_headers_digest();
  const std::string key = sha256_hex(key_text);
  const std::string mem_key = key + "@" + std::to_string(device);

  {
    std::lock_guard<std::mutex> lock(cache_mutex());
    auto it = memory_cache().find(mem_key);
    if (it != memory_cache().end()) return it->second;
  }
  CompiledProgram prog;
  const std::string dir = jit_cache_dir();
  const std::string file = dir.empty() ? "" : dir + "/" + key + ".bin";
  if (file.empty() || !read_disk(file, prog, name_expressions.size())) {
    prog = nvrtc_compile(source, "gpuarr_kernel.cu", opts, name_expressions);
    ++g_compile_count;
    if (!file.empty()) write_disk(dir, file, prog);
  }
  auto mod = std::make_shared<JitModule>(std::move(prog.binary), prog.cubin, name_expressions,
                                         std::move(prog.lowered));
  std::lock_guard<std::mutex> lock(cache_mutex());
  auto [it, inserted] = memory_cache().emplace(mem_key, mod);
  return it->second;
}

}  // namespace gpuarr
