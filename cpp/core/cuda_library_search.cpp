#include "core/cuda_library_search.hpp"

#include <algorithm>

namespace gpuarr {
namespace {

std::string join_path(std::string dir, const std::string& rest) {
  while (!dir.empty() && dir.back() == '/') dir.pop_back();
  return dir + "/" + rest;
}

// Only absolute entries: a relative one ("" is the working directory under `python -c`)
// would load a library from wherever the process happens to run.
std::vector<std::string> search_roots(const CudaLibrarySearch& search) {
  std::vector<std::string> roots;
  for (std::string p : search.python_paths) {
    if (p.empty() || p.front() != '/') continue;
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    if (std::find(roots.begin(), roots.end(), p) == roots.end()) roots.push_back(std::move(p));
  }
  return roots;
}

std::string wheel_subdir(const CudaLibrarySearch& search) {
  return "nvidia/cu" + std::to_string(search.cuda_major) + "/lib";
}

// "13" of "libcublas.so.13": the wheels' major version matches the soname's.
std::string soname_major(const std::string& soname) {
  const auto pos = soname.rfind(".so.");
  return pos == std::string::npos ? "" : soname.substr(pos + 4);
}

std::string install_hint(const CudaLibraryInfo& lib, int cuda_major) {
  const std::string major = soname_major(lib.soname);
  std::string pkg = lib.pip_package;
  if (!major.empty()) pkg += "==" + major + ".*";
  return "pip install \"" + pkg + "\" or install the CUDA " + std::to_string(cuda_major) +
         " toolkit";
}

}  // namespace

std::string cuda_library_companion(const CudaLibraryInfo& lib, const std::string& loaded_path,
                                   const std::vector<std::string>& entries) {
  if (lib.companion_prefix == nullptr) return "";
  const auto slash = loaded_path.rfind('/');
  if (slash == std::string::npos) return "";
  const std::string prefix = lib.companion_prefix;
  std::string best;
  std::ptrdiff_t best_parts = 0;
  for (const std::string& e : entries) {
    if (e.size() <= prefix.size() || e.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string version = e.substr(prefix.size());
    if (!std::all_of(version.begin(), version.end(),
                     [](char ch) { return (ch >= '0' && ch <= '9') || ch == '.'; }))
      continue;
    const std::ptrdiff_t parts = std::count(version.begin(), version.end(), '.');
    if (best.empty() || parts < best_parts || (parts == best_parts && e < best)) {
      best = e;
      best_parts = parts;
    }
  }
  return best.empty() ? "" : loaded_path.substr(0, slash + 1) + best;
}

std::vector<CudaLibraryCandidate> cuda_library_candidates(const CudaLibraryInfo& lib,
                                                          const CudaLibrarySearch& search) {
  using Kind = CudaLibraryCandidate::Kind;
  std::vector<CudaLibraryCandidate> out;
  auto add = [&](Kind kind, const std::string& path) {
    CudaLibraryCandidate c{kind, path};
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(std::move(c));
  };
  add(Kind::AlreadyLoaded, lib.soname);
  const std::string subdirs[] = {wheel_subdir(search),
                                 std::string("nvidia/") + lib.wheel_dir + "/lib"};
  for (const std::string& root : search_roots(search)) {
    for (const std::string& sub : subdirs) {
      add(Kind::File, join_path(root, sub + "/" + lib.soname));
    }
  }
  if (search.system) add(Kind::System, lib.soname);
  if (!search.toolkit_lib_dir.empty()) {
    add(Kind::File, join_path(search.toolkit_lib_dir, lib.soname));
  }
  return out;
}

std::string cuda_library_not_found_message(
    const CudaLibraryInfo& lib, const CudaLibrarySearch& search,
    const std::vector<std::pair<std::string, std::string>>& failures) {
  std::string m = std::string(lib.name) + " (" + lib.soname + ") could not be loaded; gpuarr " +
                  "uses it for " + lib.purpose + ". Install it: " +
                  install_hint(lib, search.cuda_major) + ". Searched: ";
  const auto roots = search_roots(search);
  std::vector<std::string> places;
  if (roots.empty()) {
    places.push_back("no sys.path entry (NVIDIA's wheels install into <site-packages>/" +
                     wheel_subdir(search) + ")");
  } else {
    std::string s = wheel_subdir(search) + " and nvidia/" + lib.wheel_dir +
                    "/lib under the sys.path entries ";
    for (size_t i = 0; i < roots.size(); ++i) s += (i ? ", " : "") + roots[i];
    places.push_back(s);
  }
  if (search.system) places.push_back("the system's library path (LD_LIBRARY_PATH, ld.so.cache)");
  if (!search.toolkit_lib_dir.empty()) places.push_back(search.toolkit_lib_dir);
  for (size_t i = 0; i < places.size(); ++i) m += (i ? "; " : "") + places[i];
  m += ".";
  if (!failures.empty()) {
    m += " Found but not loadable:";
    for (const auto& [path, error] : failures) m += " " + path + " (" + error + ");";
    m.back() = '.';
  }
  return m;
}

std::string cuda_library_missing_function_message(const CudaLibraryInfo& lib,
                                                  const std::string& path,
                                                  const std::string& function, int cuda_major) {
  return std::string(lib.name) + " at " + path + " has no function " + function +
         ", which gpuarr calls: it is older than the CUDA " + std::to_string(cuda_major) +
         " release gpuarr was built with. Upgrade it: " + install_hint(lib, cuda_major) + ".";
}

}  // namespace gpuarr
