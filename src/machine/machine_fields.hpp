// Internal: the scalar fields of each machine-file section, listed once and shared by the
// JSON reader and writer, the validator and the report view, so that the four cannot drift.
#pragma once

#include "kerncast/machine/machine_model.hpp"

#include <array>
#include <cstdint>
#include <string_view>
#include <variant>

namespace kerncast::machine_fields {

// How a field must be checked beyond its type.
enum class Range {
    positive,     // > 0
    non_negative, // >= 0
    any,          // no sign constraint (strings, fit coefficients)
};

template <class Section>
using Member = std::variant<Known<int> Section::*, Known<std::int64_t> Section::*,
                            Known<double> Section::*, Known<std::string> Section::*>;

template <class Section> struct Field {
    std::string_view key;   // JSON key, e.g. "sm_count"
    Member<Section> member; // where the value lives
    std::string_view unit;  // for reports: "B", "MHz", "cycles", "GB/s", "" ...
    Range range;
};

// Keys ending in "_bytes" also accept a size string such as "48 KiB" (docs/machine-format.md).
constexpr bool is_size_key(std::string_view key) {
    return key.size() > 6 && key.substr(key.size() - 6) == "_bytes";
}

using R = Range;
using CU = ComputeUnits;
inline constexpr std::array<Field<CU>, 23> compute_fields{{
    {"sm_count", &CU::sm_count, "", R::positive},
    {"base_clock_mhz", &CU::base_clock_mhz, "MHz", R::positive},
    {"boost_clock_mhz", &CU::boost_clock_mhz, "MHz", R::positive},
    {"measured_sm_clock_mhz", &CU::measured_sm_clock_mhz, "MHz", R::positive},
    {"warp_size", &CU::warp_size, "threads", R::positive},
    {"max_threads_per_block", &CU::max_threads_per_block, "threads", R::positive},
    {"max_threads_per_sm", &CU::max_threads_per_sm, "threads", R::positive},
    {"max_warps_per_sm", &CU::max_warps_per_sm, "warps", R::positive},
    {"max_blocks_per_sm", &CU::max_blocks_per_sm, "blocks", R::positive},
    {"block_launches_per_cycle", &CU::block_launches_per_cycle, "blocks/cycle", R::positive},
    {"warp_duration_cv", &CU::warp_duration_cv, "", R::non_negative},
    {"load_window_reserved_registers", &CU::load_window_reserved_registers, "registers",
     R::non_negative},
    {"registers_per_sm", &CU::registers_per_sm, "registers", R::positive},
    {"max_registers_per_thread", &CU::max_registers_per_thread, "registers", R::positive},
    {"max_registers_per_block", &CU::max_registers_per_block, "registers", R::positive},
    {"register_allocation_unit", &CU::register_allocation_unit, "registers", R::positive},
    {"register_allocation_granularity", &CU::register_allocation_granularity, "", R::any},
    {"warp_allocation_granularity", &CU::warp_allocation_granularity, "warps", R::positive},
    {"shared_memory_per_sm_bytes", &CU::shared_memory_per_sm_bytes, "B", R::positive},
    {"shared_memory_per_block_bytes", &CU::shared_memory_per_block_bytes, "B", R::positive},
    {"shared_memory_per_block_optin_bytes", &CU::shared_memory_per_block_optin_bytes, "B",
     R::positive},
    {"shared_memory_allocation_unit_bytes", &CU::shared_memory_allocation_unit_bytes, "B",
     R::positive},
    {"reserved_shared_memory_per_block_bytes", &CU::reserved_shared_memory_per_block_bytes, "B",
     R::non_negative},
}};

using ML = MemoryLevel;
inline constexpr std::array<Field<ML>, 14> level_fields{{
    {"size_bytes", &ML::size_bytes, "B", R::positive},
    {"effective_size_bytes", &ML::effective_size_bytes, "B", R::positive},
    {"line_bytes", &ML::line_bytes, "B", R::positive},
    {"sector_bytes", &ML::sector_bytes, "B", R::positive},
    {"ways", &ML::ways, "", R::positive},
    {"latency_cycles", &ML::latency_cycles, "cycles", R::positive},
    {"latency_near_cycles", &ML::latency_near_cycles, "cycles", R::positive},
    {"latency_far_cycles", &ML::latency_far_cycles, "cycles", R::positive},
    {"peak_bandwidth_gbs", &ML::peak_bandwidth_gbs, "GB/s", R::positive},
    {"sustained_bandwidth_gbs", &ML::sustained_bandwidth_gbs, "GB/s", R::positive},
    {"store_bandwidth_gbs", &ML::store_bandwidth_gbs, "GB/s", R::positive},
    {"partitions", &ML::partitions, "", R::positive},
    {"count_per_sm", &ML::count_per_sm, "", R::positive},
    {"same_cache_as", &ML::same_cache_as, "", R::any},
}};

using TL = TlbLevel;
inline constexpr std::array<Field<TL>, 3> tlb_fields{{
    {"reach_bytes", &TL::reach_bytes, "B", R::positive},
    {"page_bytes", &TL::page_bytes, "B", R::positive},
    {"miss_latency_cycles", &TL::miss_latency_cycles, "cycles", R::positive},
}};

using SB = SharedMemoryBanks;
inline constexpr std::array<Field<SB>, 4> bank_fields{{
    {"banks", &SB::banks, "", R::positive},
    {"bank_width_bytes", &SB::bank_width_bytes, "B", R::positive},
    {"wavefront_window_bytes", &SB::wavefront_window_bytes, "B", R::non_negative},
    {"miss_pass", &SB::miss_pass, "", R::any},
}};

// Values of shared_memory_banks.miss_pass.
inline constexpr std::array<std::string_view, 2> miss_pass_values{"none", "after_hits"};

using MC = MwpCwpParameters;
inline constexpr std::array<Field<MC>, 4> mwp_cwp_fields{{
    {"mem_ld_cycles", &MC::mem_ld_cycles, "cycles", R::positive},
    {"departure_del_uncoal_cycles", &MC::departure_del_uncoal_cycles, "cycles", R::positive},
    {"departure_del_coal_cycles", &MC::departure_del_coal_cycles, "cycles", R::positive},
    {"issue_cycles", &MC::issue_cycles, "cycles", R::positive},
}};

// Names a memory level may have (docs/machine-format.md), in order from the SM outwards.
inline constexpr std::array<std::string_view, 3> hierarchy_level_names{"l1", "l2", "dram"};
inline constexpr std::array<std::string_view, 5> special_memory_names{
    "texture", "readonly", "constant_l1", "constant_l15", "shared"};
inline constexpr std::array<std::string_view, 4> sharing_scopes{"sm", "tpc", "gpc", "gpu"};

// Capacity-fit slots of CapacityFits (Ernst et al. 2023, sec. 4.5).
using CF = CapacityFits;
struct FitSlot {
    std::string_view key;
    std::optional<CapacityFit> CF::*member;
};
inline constexpr std::array<FitSlot, 5> capacity_fit_slots{{
    {"l1_redundant_loads", &CF::l1_redundant_loads},
    {"y_layer_overlap", &CF::y_layer_overlap},
    {"z_layer_overlap", &CF::z_layer_overlap},
    {"l2_redundant_stores", &CF::l2_redundant_stores},
    {"l2_redundant_loads", &CF::l2_redundant_loads},
}};

} // namespace kerncast::machine_fields
