// The DLPack ABI (v1.1: versioned DLManagedTensorVersioned plus the legacy DLManagedTensor),
// defined here because no maintained package ships the >= 1.0 header in a form usable at
// build time (the PyPI name "dlpack" is an unrelated 2019 project). Layouts follow
// dmlc/dlpack include/dlpack/dlpack.h exactly; the static_asserts pin sizes and offsets on
// the 64-bit platforms gpuarr builds for, so a mistake fails the build, not a consumer.
#pragma once
#include <cstddef>
#include <cstdint>

extern "C" {

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 1

#define DLPACK_FLAG_BITMASK_READ_ONLY (1ULL << 0)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1ULL << 1)
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1ULL << 2)

typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

typedef enum {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,
  kDLBool = 6U,
  kDLFloat8_e3m4 = 7U,
  kDLFloat8_e4m3 = 8U,
  kDLFloat8_e4m3b11fnuz = 9U,
  kDLFloat8_e4m3fn = 10U,
  kDLFloat8_e4m3fnuz = 11U,
  kDLFloat8_e5m2 = 12U,
  kDLFloat8_e5m2fnuz = 13U,
  kDLFloat8_e8m0fnu = 14U,
  kDLFloat6_e2m3fn = 15U,
  kDLFloat6_e3m2fn = 16U,
  kDLFloat4_e2m1fn = 17U,
} DLDataTypeCode;

typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; NULL means compact row-major
  uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

}  // extern "C"

static_assert(sizeof(void*) == 8, "gpuarr's DLPack layout checks assume a 64-bit platform");
static_assert(sizeof(DLDeviceType) == 4);
static_assert(sizeof(DLPackVersion) == 8);
static_assert(sizeof(DLDevice) == 8 && offsetof(DLDevice, device_id) == 4);
static_assert(sizeof(DLDataType) == 4 && offsetof(DLDataType, bits) == 1 &&
              offsetof(DLDataType, lanes) == 2);
static_assert(offsetof(DLTensor, data) == 0 && offsetof(DLTensor, device) == 8 &&
              offsetof(DLTensor, ndim) == 16 && offsetof(DLTensor, dtype) == 20 &&
              offsetof(DLTensor, shape) == 24 && offsetof(DLTensor, strides) == 32 &&
              offsetof(DLTensor, byte_offset) == 40 && sizeof(DLTensor) == 48);
static_assert(offsetof(DLManagedTensor, manager_ctx) == 48 &&
              offsetof(DLManagedTensor, deleter) == 56 && sizeof(DLManagedTensor) == 64);
static_assert(offsetof(DLManagedTensorVersioned, version) == 0 &&
              offsetof(DLManagedTensorVersioned, manager_ctx) == 8 &&
              offsetof(DLManagedTensorVersioned, deleter) == 16 &&
              offsetof(DLManagedTensorVersioned, flags) == 24 &&
              offsetof(DLManagedTensorVersioned, dl_tensor) == 32 &&
              sizeof(DLManagedTensorVersioned) == 80);
