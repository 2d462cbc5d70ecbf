#include "kerncast/gpu/devices.hpp"

namespace kerncast::gpu {

report::Document devices_view(const std::vector<DeviceInfo>& devices) {
    report::Document doc;
    doc.schema = "kerncast.devices/1";
    doc.title = "CUDA devices";
    report::Table table;
    table.key = "devices";
    table.title = "Visible GPUs (CUDA runtime device query)";
    table.columns = {
        {"ordinal", "#", "", -1},
        {"name", "name", "", -1},
        {"compute_capability", "CC", "", -1},
        {"sm_count", "SMs", "", -1},
        {"sm_clock_peak_mhz", "SM clock", "MHz", 0},
        {"memory_clock_peak_mhz", "mem clock", "MHz", 0},
        {"memory_bus_width_bits", "bus", "bit", -1},
        {"global_memory_bytes", "memory", "B", -1},
        {"l2_cache_bytes", "L2", "B", -1},
        {"shared_memory_per_sm_bytes", "smem/SM", "B", -1},
        {"registers_per_sm", "regs/SM", "", -1},
        {"max_threads_per_sm", "threads/SM", "", -1},
        {"pci_bus_id", "PCI", "", -1},
        {"driver_version", "driver", "", -1},
    };
    for (const auto& d : devices) {
        table.rows.push_back({
            std::int64_t{d.ordinal},
            d.name,
            std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor),
            std::int64_t{d.sm_count},
            d.sm_clock_peak_mhz,
            d.memory_clock_peak_mhz,
            std::int64_t{d.memory_bus_width_bits},
            d.global_memory_bytes,
            d.l2_cache_bytes,
            std::int64_t{d.shared_memory_per_sm_bytes},
            std::int64_t{d.registers_per_sm},
            std::int64_t{d.max_threads_per_sm},
            d.pci_bus_id,
            std::int64_t{d.driver_version},
        });
    }
    doc.tables.push_back(std::move(table));
    return doc;
}

} // namespace kerncast::gpu
