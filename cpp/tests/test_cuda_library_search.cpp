#include <gtest/gtest.h>

#include "core/cuda_library_search.hpp"

using namespace gpuarr;
using Kind = CudaLibraryCandidate::Kind;

namespace {

CudaLibraryInfo cublas() {
  return {"cublas", "cuBLAS", "libcublas.so.13", "matrix products", "nvidia-cublas", "cublas"};
}

CudaLibrarySearch search() {
  CudaLibrarySearch s;
  s.python_paths = {"", "/venv/lib/python3.11/site-packages/", "rel/dir",
                    "/venv/lib/python3.11/site-packages", "/usr/lib/python3/dist-packages"};
  s.cuda_major = 13;
  s.toolkit_lib_dir = "/usr/local/cuda/lib64";
  return s;
}

}  // namespace

TEST(CudaLibrarySearch, WheelsFirstThenSystemThenToolkit) {
  const auto c = cuda_library_candidates(cublas(), search());
  const std::vector<CudaLibraryCandidate> expected = {
      {Kind::AlreadyLoaded, "libcublas.so.13"},
      {Kind::File, "/venv/lib/python3.11/site-packages/nvidia/cu13/lib/libcublas.so.13"},
      {Kind::File, "/venv/lib/python3.11/site-packages/nvidia/cublas/lib/libcublas.so.13"},
      {Kind::File, "/usr/lib/python3/dist-packages/nvidia/cu13/lib/libcublas.so.13"},
      {Kind::File, "/usr/lib/python3/dist-packages/nvidia/cublas/lib/libcublas.so.13"},
      {Kind::System, "libcublas.so.13"},
      {Kind::File, "/usr/local/cuda/lib64/libcublas.so.13"},
  };
  ASSERT_EQ(c.size(), expected.size());
  for (size_t i = 0; i < c.size(); ++i) {
    EXPECT_EQ(int(c[i].kind), int(expected[i].kind)) << i;
    EXPECT_EQ(c[i].path, expected[i].path) << i;
  }
}

TEST(CudaLibrarySearch, RelativeAndDuplicateEntriesAreSkipped) {
  CudaLibrarySearch s = search();
  s.python_paths = {"", ".", "site", "/a", "/a", "/"};
  s.system = false;
  s.toolkit_lib_dir.clear();
  const auto c = cuda_library_candidates(cublas(), s);
  std::vector<std::string> paths;
  for (const auto& x : c) paths.push_back(x.path);
  const std::vector<std::string> expected = {
      "libcublas.so.13", "/a/nvidia/cu13/lib/libcublas.so.13",
      "/a/nvidia/cublas/lib/libcublas.so.13", "/nvidia/cu13/lib/libcublas.so.13",
      "/nvidia/cublas/lib/libcublas.so.13"};
  EXPECT_EQ(paths, expected);
}

TEST(CudaLibrarySearch, NotFoundMessageSaysWhatWhereAndHow) {
  const std::string m = cuda_library_not_found_message(
      cublas(), search(),
      {{"/x/nvidia/cu13/lib/libcublas.so.13", "libcublasLt.so.13: cannot open"}});
  EXPECT_EQ(m,
            "cuBLAS (libcublas.so.13) could not be loaded; gpuarr uses it for matrix products. "
            "Install it: pip install \"nvidia-cublas==13.*\" or install the CUDA 13 toolkit. "
            "Searched: nvidia/cu13/lib and nvidia/cublas/lib under the sys.path entries "
            "/venv/lib/python3.11/site-packages, "
            "/usr/lib/python3/dist-packages; the system's library path (LD_LIBRARY_PATH, "
            "ld.so.cache); /usr/local/cuda/lib64. Found but not loadable: "
            "/x/nvidia/cu13/lib/libcublas.so.13 (libcublasLt.so.13: cannot open).");
}

TEST(CudaLibrarySearch, NotFoundMessageWithNothingToSearch) {
  CudaLibrarySearch s;
  s.cuda_major = 13;
  s.system = false;
  const CudaLibraryInfo cusolver{"cusolver", "cuSOLVER", "libcusolver.so.12", "linear algebra",
                                 "nvidia-cusolver", "cusolver"};
  EXPECT_EQ(cuda_library_not_found_message(cusolver, s, {}),
            "cuSOLVER (libcusolver.so.12) could not be loaded; gpuarr uses it for linear "
            "algebra. Install it: pip install \"nvidia-cusolver==12.*\" or install the CUDA 13 "
            "toolkit. Searched: no sys.path entry (NVIDIA's wheels install into "
            "<site-packages>/nvidia/cu13/lib).");
}

TEST(CudaLibrarySearch, MissingFunctionMessage) {
  EXPECT_EQ(cuda_library_missing_function_message(cublas(), "/l/libcublas.so.13",
                                                   "cublasGemmGroupedBatchedEx", 13),
            "cuBLAS at /l/libcublas.so.13 has no function cublasGemmGroupedBatchedEx, which "
            "gpuarr calls: it is older than the CUDA 13 release gpuarr was built with. Upgrade "
            "it: pip install \"nvidia-cublas==13.*\" or install the CUDA 13 toolkit.");
}

TEST(CudaLibrarySearch, CompanionIsTheSonameBesideTheLoadedLibrary) {
  CudaLibraryInfo nvrtc{"nvrtc", "NVRTC", "libnvrtc.so.13", "kernels", "nvidia-cuda-nvrtc",
                        "cuda_nvrtc", "libnvrtc-builtins.so."};
  const std::vector<std::string> entries = {
      "libnvrtc.so.13", "libnvrtc-builtins.so.13.0.88", "libnvrtc-builtins.alt.so.13.0",
      "libnvrtc-builtins.so.13.0", "libnvrtc-builtins.so", "libcublas.so.13"};
  EXPECT_EQ(cuda_library_companion(nvrtc, "/venv/site-packages/nvidia/cu13/lib/libnvrtc.so.13",
                                   entries),
            "/venv/site-packages/nvidia/cu13/lib/libnvrtc-builtins.so.13.0");
  // Only the full file name when the soname link is missing.
  EXPECT_EQ(cuda_library_companion(nvrtc, "/t/lib/libnvrtc.so.13",
                                   {"libnvrtc-builtins.so.13.0.88", "libnvrtc.so.13"}),
            "/t/lib/libnvrtc-builtins.so.13.0.88");
  EXPECT_EQ(cuda_library_companion(nvrtc, "/t/lib/libnvrtc.so.13", {"libnvrtc.so.13"}), "");
  EXPECT_EQ(cuda_library_companion(nvrtc, "libnvrtc.so.13", entries), "");  // no directory
  EXPECT_EQ(cuda_library_companion(cublas(), "/t/lib/libcublas.so.13", entries), "");
}
