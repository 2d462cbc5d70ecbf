#include "kerncast/models/occupancy/register_count.hpp"

#include "kerncast/error.hpp"

#include <fmt/format.h>

namespace kerncast::models {

const char* register_source_name(RegisterSource source) {
    switch (source) {
    case RegisterSource::unknown:
        return "unknown";
    case RegisterSource::command_line:
        return "command line";
    case RegisterSource::kernel_file:
        return "kernel file";
    case RegisterSource::ptxas:
        return "ptxas";
    case RegisterSource::measurement_record:
        return "measurement record";
    }
    KERNCAST_CHECK(false, "unknown register source");
    return "";
}

RegisterRequest parse_register_request(const std::string& text, const std::string& option) {
    RegisterRequest request;
    if (text.empty())
        return request;
    if (text == "auto") {
        request.kind = RegisterRequest::Kind::automatic;
        return request;
    }
    const bool digits = text.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || text.size() > 3 || std::stoi(text) > kernel::max_registers_per_thread)
        throw_usage_error(
            fmt::format("{}: '{}' is neither 'auto' nor a register count from 0 to {}", option,
                        text, kernel::max_registers_per_thread));
    request.kind = RegisterRequest::Kind::count;
    request.count = std::stoi(text);
    return request;
}

std::optional<RegisterCount> fixed_register_count(const RegisterRequest& request,
                                                  const kernel::KernelSpec& spec) {
    RegisterCount count;
    if (request.kind == RegisterRequest::Kind::automatic)
        return std::nullopt; // asked for on the command line: ptxas, even over the file's count
    if (request.kind == RegisterRequest::Kind::count) {
        count.per_thread = request.count;
        count.source = RegisterSource::command_line;
    } else if (spec.registers_per_thread) {
        count.per_thread = *spec.registers_per_thread;
        count.source = RegisterSource::kernel_file;
    }
    return count;
}

std::string register_count_note(const RegisterCount& count) {
    switch (count.source) {
    case RegisterSource::unknown:
        return "Registers per thread unknown (--registers N|auto, or registers_per_thread in the "
               "kernel file): occupancy assumes they do not limit.";
    case RegisterSource::command_line:
        if (count.per_thread == 0)
            return "--registers 0: occupancy assumes registers do not limit.";
        return fmt::format("Registers per thread: {} (command line).", count.per_thread);
    case RegisterSource::kernel_file:
        return fmt::format("Registers per thread: {} (the kernel file's registers_per_thread).",
                           count.per_thread);
    case RegisterSource::measurement_record:
        return fmt::format("Registers per thread: {} (the measurement record's "
                           "registers_per_thread, as the compiler of the measured code reported).",
                           count.per_thread);
    case RegisterSource::ptxas: {
        std::string note = fmt::format(
            "Registers per thread: {}, from ptxas (NVRTC, {}) compiling kerncast's generated CUDA "
            "for this launch; hand-written or differently compiled code may use another count.",
            count.per_thread, count.target);
        if (count.spill_store_bytes > 0 || count.spill_load_bytes > 0)
            note += fmt::format(" It spills: {} B stored, {} B loaded per thread (local memory "
                                "traffic the volume model does not count).",
                                count.spill_store_bytes, count.spill_load_bytes);
        return note;
    }
    }
    KERNCAST_CHECK(false, "unknown register source");
    return "";
}

} // namespace kerncast::models
