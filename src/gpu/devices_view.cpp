#include "kerncast/gpu/devices.hpp"
#include "kerncast/report/table_builder.hpp"

namespace kerncast::gpu {

report::Document devices_view(const std::vector<DeviceInfo>& devices) {
    report::Document doc;
    doc.schema = "kerncast.devices/1";
    doc.title = "CUDA devices";
    report::TableBuilder table("devices", "Visible GPUs (CUDA runtime device query)");
    table.columns({{"ordinal", "#"},
                   "name",
                   {"compute_capability", "CC"},
                   {"sm_count", "SMs"},
                   {"sm_clock_peak_mhz", "SM clock", "MHz", 0},
                   {"memory_clock_peak_mhz", "mem clock", "MHz", 0},
                   {"memory_bus_width_bits", "bus", "bit"},
                   {"global_memory_bytes", "memory", "B"},
                   {"l2_cache_bytes", "L2", "B"},
                   {"shared_memory_per_sm_bytes", "smem/SM", "B"},
                   {"registers_per_sm", "regs/SM"},
                   {"max_threads_per_sm", "threads/SM"},
                   {"pci_bus_id", "PCI"},
                   {"driver_version", "driver"}});
    for (const auto& d : devices)
        table.row(d.ordinal, d.name, std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor),
                  d.sm_count, d.sm_clock_peak_mhz, d.memory_clock_peak_mhz, d.memory_bus_width_bits,
                  d.global_memory_bytes, d.l2_cache_bytes, d.shared_memory_per_sm_bytes,
                  d.registers_per_sm, d.max_threads_per_sm, d.pci_bus_id, d.driver_version);
    doc.tables.push_back(table.build());
    return doc;
}

} // namespace kerncast::gpu
