// Versions of the CUDA libraries gpuarr runs with, read without a device (for
// gpuarr.show_config and bug reports); reading one loads its library. 0 where a version
// cannot be read (or the library cannot be loaded).
#pragma once

namespace gpuarr {

struct LibraryVersions {
  int runtime = 0;   // cudaRuntimeGetVersion: 1000 * major + 10 * minor
  int driver = 0;    // cudaDriverGetVersion (0: no driver)
  int cublas = 0;    // 10000 * major + 100 * minor + patch
  int cusolver = 0;  // 10000 * major + 100 * minor + patch
  int cufft = 0;     // cufftGetVersion
  int nvrtc = 0;     // 1000 * major + 10 * minor
};

LibraryVersions library_versions();

}  // namespace gpuarr
