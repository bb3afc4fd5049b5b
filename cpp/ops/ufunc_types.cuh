// Loop type lists in NumPy's loop order (? b B h H i I l L e f d F D).
#pragma once
#include "ops/elementwise.cuh"

#define GA_INTS int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t
#define GA_FLOATS __half, float, double
#define GA_COMPLEX complex64_t, complex128_t
#define GA_ALL bool, GA_INTS, GA_FLOATS, GA_COMPLEX
#define GA_NUMBERS GA_INTS, GA_FLOATS, GA_COMPLEX
#define GA_INEXACT GA_FLOATS, GA_COMPLEX
#define GA_REAL_NUMBERS GA_INTS, GA_FLOATS

namespace gpuarr {
using R = UfuncResolver;
}
