#include "runtime/nvrtc_compiler.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <nvrtc.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/file_io.hpp"
#include "core/sha256.hpp"

namespace gpuarr {
namespace {

void check_nvrtc(nvrtcResult r, const char* call) {
  if (r != NVRTC_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed: " + nvrtcGetErrorString(r));
}
#define GPUARR_NVRTC_CHECK(expr) check_nvrtc((expr), #expr)

bool is_dir(const std::string& p) {
  struct stat st{};
  return !p.empty() && stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The directory of the shared object this code is linked into (the extension module).
std::string module_dir() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&module_dir), &info) || !info.dli_fname) return "";
  const std::string file = info.dli_fname;
  const size_t slash = file.rfind('/');
  return slash == std::string::npos ? "." : file.substr(0, slash);
}

struct ProgramGuard {
  nvrtcProgram p = nullptr;
  ~ProgramGuard() {
    if (p) nvrtcDestroyProgram(&p);
  }
};

}  // namespace

int nvrtc_version() {
  int major = 0, minor = 0;
  GPUARR_NVRTC_CHECK(nvrtcVersion(&major, &minor));
  return major * 1000 + minor * 10;
}

std::string nvrtc_arch_option(int cc) {
  int n = 0;
  GPUARR_NVRTC_CHECK(nvrtcGetNumSupportedArchs(&n));
  std::vector<int> archs(static_cast<size_t>(n));
  if (n > 0) GPUARR_NVRTC_CHECK(nvrtcGetSupportedArchs(archs.data()));
  if (std::find(archs.begin(), archs.end(), cc) != archs.end())
    return "-arch=sm_" + std::to_string(cc);
  int best = 0;
  for (int a : archs)
    if (a <= cc && a > best) best = a;
  if (best == 0 && !archs.empty()) best = *std::min_element(archs.begin(), archs.end());
  return "-arch=compute_" + std::to_string(best);
}

std::string toolkit_include_dir() {
  for (const char* var : {"CUDA_PATH", "CUDA_HOME"}) {
    const char* v = std::getenv(var);
    if (v && is_dir(std::string(v) + "/include")) return std::string(v) + "/include";
  }
  if (is_dir("/usr/local/cuda/include")) return "/usr/local/cuda/include";
  return "";
}

std::string package_include_dir() {
  static const std::string dir = [] {
    const std::string here = module_dir();
    if (here.empty()) return std::string();
    for (const std::string& d : {here + "/include", here + "/../../cpp/include"})
      if (is_dir(d + "/gpuarr")) return d;
    return std::string();
  }();
  return dir;
}

const std::string& package_headers_digest() {
  static const std::string digest = [] {
    const std::string dir = package_include_dir();
    if (dir.empty()) return std::string("none");
    std::vector<std::string> names;
    if (DIR* d = opendir((dir + "/gpuarr").c_str())) {
      while (const dirent* e = readdir(d))
        if (e->d_name[0] != '.') names.emplace_back(e->d_name);
      closedir(d);
    }
    std::sort(names.begin(), names.end());
    std::string text;
    for (const std::string& n : names) {
      text += n;
      text += '\0';
      if (!append_file_contents(dir + "/gpuarr/" + n, text)) text += "<unreadable>";
      text += '\0';
    }
    return sha256_hex(text);
  }();
  return digest;
}

std::vector<std::string> include_options(bool toolkit) {
  std::vector<std::string> opts;
  const std::string pkg = package_include_dir();
  if (!pkg.empty()) opts.push_back("-I" + pkg);
  const std::string inc = toolkit ? toolkit_include_dir() : "";
  if (!inc.empty()) {
    opts.push_back("-I" + inc);
    if (is_dir(inc + "/cccl")) opts.push_back("-I" + inc + "/cccl");
  }
  return opts;
}

// Plain string work (no iostreams: see jit_cache.cpp).
std::string number_lines(const std::string& source) {
  std::string out;
  int n = 1;
  char buf[16];
  size_t start = 0;
  while (start < source.size()) {
    size_t end = source.find('\n', start);
    if (end == std::string::npos) end = source.size();
    std::snprintf(buf, sizeof buf, "%4d ", n++);
    out += buf;
    out.append(source, start, end - start);
    out += "\n";
    start = end + 1;
  }
  return out;
}

CompiledProgram nvrtc_compile(const std::string& source, const std::string& name,
                              const std::vector<std::string>& options,
                              const std::vector<std::string>& name_expressions) {
  ProgramGuard prog;
  GPUARR_NVRTC_CHECK(nvrtcCreateProgram(&prog.p, source.c_str(),
                                        (name.empty() ? "kernel" : name).c_str(), 0, nullptr,
                                        nullptr));
  for (const auto& e : name_expressions)
    GPUARR_NVRTC_CHECK(nvrtcAddNameExpression(prog.p, e.c_str()));
  std::vector<const char*> opts;
  opts.reserve(options.size());
  for (const auto& o : options) opts.push_back(o.c_str());
  nvrtcResult r = nvrtcCompileProgram(prog.p, static_cast<int>(opts.size()), opts.data());
  CompiledProgram out;
  size_t log_size = 0;
  nvrtcGetProgramLogSize(prog.p, &log_size);
  if (log_size > 1) {
    out.log.resize(log_size);
    nvrtcGetProgramLog(prog.p, out.log.data());
    out.log.resize(log_size - 1);
  }
  if (r != NVRTC_SUCCESS) {
    std::string what = std::string(nvrtcGetErrorString(r)) + "\n" + out.log +
                       "\n\n=== source ===\n" + number_lines(source);
    throw CompileError(what, out.log);
  }
  size_t cubin_size = 0;
  if (nvrtcGetCUBINSize(prog.p, &cubin_size) == NVRTC_SUCCESS && cubin_size > 0) {
    out.binary.resize(cubin_size);
    GPUARR_NVRTC_CHECK(nvrtcGetCUBIN(prog.p, out.binary.data()));
    out.cubin = true;
  } else {
    size_t ptx_size = 0;
    GPUARR_NVRTC_CHECK(nvrtcGetPTXSize(prog.p, &ptx_size));
    out.binary.resize(ptx_size);
    GPUARR_NVRTC_CHECK(nvrtcGetPTX(prog.p, out.binary.data()));
  }
  for (const auto& e : name_expressions) {
    const char* lowered = nullptr;
    GPUARR_NVRTC_CHECK(nvrtcGetLoweredName(prog.p, e.c_str(), &lowered));
    out.lowered.emplace_back(lowered);
  }
  return out;
}

}  // namespace gpuarr
