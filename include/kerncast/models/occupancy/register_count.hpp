// Registers per thread for the occupancy calculation (Hong & Kim 2009, sec. 5 / Table 1;
// Ernst et al. 2023, sec. 4.4: the wave is the resident blocks): the count, and where it
// came from — the command line, the kernel file, ptxas compiling the generated code, or
// nowhere (then registers do not limit occupancy).
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace kerncast::models {

enum class RegisterSource { unknown, command_line, kernel_file, ptxas, measurement_record };

// "unknown", "command line", "kernel file", "ptxas", "measurement record": the spelling of
// reports.
const char* register_source_name(RegisterSource source);

struct RegisterCount {
    int per_thread = 0; // 0: unknown (or --registers 0): registers do not limit occupancy
    RegisterSource source = RegisterSource::unknown;
    // ptxas only: what it compiled for and what it reported besides the registers.
    std::string target;                 // "sm_80"
    std::int64_t stack_frame_bytes = 0; // per thread, local memory (private arrays, spills)
    std::int64_t spill_store_bytes = 0;
    std::int64_t spill_load_bytes = 0;
};

// What the command line asked for with --registers.
struct RegisterRequest {
    enum class Kind { none, count, automatic };
    Kind kind = Kind::none;
    int count = 0; // Kind::count: 0..max_registers_per_thread (0: registers do not limit)
};

// "--registers" text: "auto" or an integer 0..255; a usage Error (naming `option`) otherwise.
RegisterRequest parse_register_request(const std::string& text, const std::string& option);

// The precedence of docs/volume-model.md: the command line (a count, or auto), then the kernel
// file's registers_per_thread, then nothing. nullopt when the command line asks for auto: the
// caller compiles the kernel (codegen/register_usage.hpp) for each launch.
std::optional<RegisterCount> fixed_register_count(const RegisterRequest& request,
                                                  const kernel::KernelSpec& spec);

// One sentence for a report's notes: where the count came from and what it means.
std::string register_count_note(const RegisterCount& count);

} // namespace kerncast::models
