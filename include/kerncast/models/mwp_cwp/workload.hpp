// A workload: the per-thread counts of Hong & Kim 2009, Table 1, for one kernel launch. Read
// from a JSON file ("schema": "kerncast.workload/1", docs/mwp-cwp.md); a later issue derives
// it from kernel files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kerncast::models {

inline constexpr std::string_view workload_schema = "kerncast.workload/1";

struct Workload {
    std::string name;    // optional, for reports
    std::string comment; // optional free text (e.g. where a value came from)

    // Launch (Table 1 rows 8, 9).
    int threads_per_block = 0; // #Threads_per_block
    std::int64_t blocks = 0;   // #Blocks

    // Dynamic per-thread instruction counts (Table 1 rows 14-18). Non-integers are allowed:
    // they are averages over threads.
    double comp_insts = 0;       // #Comp_insts
    double uncoal_mem_insts = 0; // #Uncoal_Mem_insts
    double coal_mem_insts = 0;   // #Coal_Mem_insts
    double synch_insts = 0;      // #Synch_insts

    // Memory transactions (Table 1 rows 20, 21). #Coal_per_mw is 1 by definition.
    double uncoal_per_mw = 0;       // #Uncoal_per_mw: transactions per uncoalesced warp access
    double load_bytes_per_warp = 0; // Load_bytes_per_warp, bytes

    // Resources for the occupancy calculation; needed unless active_blocks_per_sm is given.
    std::optional<int> registers_per_thread;
    std::optional<int> shared_memory_per_block_bytes;

    // Overrides of what the occupancy calculation and the block scheduler would give.
    std::optional<int> active_blocks_per_sm; // #Active_blocks_per_SM
    std::optional<int> active_sms;           // #Active_SMs

    double mem_insts() const { return uncoal_mem_insts + coal_mem_insts; } // #Mem_insts
    double total_insts() const { return comp_insts + mem_insts(); }        // #Total_insts
};

// Parses a workload document. file_label names the source in error messages. Throws an input
// Error with file:line:column (and the offending line) for malformed JSON, and with the JSON
// path (plus the value's line:column when it is in the text) for a missing, mistyped, negative
// or unknown field; an unknown key's error names the closest known key.
Workload parse_workload_json(std::string_view text, const std::string& file_label);

// Reads and parses a workload file; an unreadable file is an input Error.
Workload load_workload_file(const std::string& path);

} // namespace kerncast::models
