// The routing thresholds (core/routing_thresholds) of the current device.
#pragma once
#include "core/routing_thresholds.hpp"

namespace gpuarr {

const RoutingThresholds& device_routing_thresholds();

}  // namespace gpuarr
