// The GPUs this process can see (CUDA runtime device query).
#pragma once

#include "kerncast/report/document.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kerncast::gpu {

struct DeviceInfo {
    int ordinal = 0;
    std::string name;
    std::string pci_bus_id;
    int cc_major = 0;
    int cc_minor = 0;
    int sm_count = 0;
    int warp_size = 0;
    double sm_clock_peak_mhz = 0;     // cudaDevAttrClockRate
    double memory_clock_peak_mhz = 0; // cudaDevAttrMemoryClockRate
    int memory_bus_width_bits = 0;
    std::int64_t global_memory_bytes = 0;
    std::int64_t l2_cache_bytes = 0;
    int max_threads_per_sm = 0;
    int max_blocks_per_sm = 0;
    int registers_per_sm = 0;
    int shared_memory_per_sm_bytes = 0;
    int shared_memory_per_block_optin_bytes = 0;
    int driver_version = 0;  // e.g. 13000 for 13.0
    int runtime_version = 0; // CUDA runtime kerncast was built against
};

// True when kerncast was built with KERNCAST_ENABLE_CUDA.
bool built_with_cuda();

// All visible devices. Throws Error(unavailable) when kerncast was built without CUDA, when
// there is no driver, or when no GPU is visible; the message says which.
std::vector<DeviceInfo> query_devices();

// A report of the devices (schema "kerncast.devices/1").
report::Document devices_view(const std::vector<DeviceInfo>& devices);

} // namespace kerncast::gpu
