#include "runtime/device_routing.hpp"

#include "runtime/device.hpp"

namespace gpuarr {

const RoutingThresholds& device_routing_thresholds() {
  return routing_thresholds_for(compute_capability(current_device()));
}

}  // namespace gpuarr
