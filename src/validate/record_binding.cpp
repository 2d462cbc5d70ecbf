// Records bound to kernel files (record_binding.hpp).
#include "kerncast/validate/record_binding.hpp"

#include "kerncast/sha256.hpp"

#include <cctype>
#include <variant>

namespace kerncast::validate {

bool record_is_of(const kernel::KernelSpec& spec, const runtime::KernelRecord& record) {
    // The generated kernel's symbol is the spec name made into a C identifier.
    std::string symbol;
    for (char c : spec.name)
        symbol += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return record.name == spec.name || record.name == symbol || record.name == "kc_" + symbol;
}

std::vector<std::pair<std::string, std::int64_t>>
record_parameter_overrides(const kernel::KernelSpec& spec, const runtime::KernelRecord& record) {
    std::vector<std::pair<std::string, std::int64_t>> overrides;
    for (const auto& [name, value] : record.parameters)
        if (spec.find_param(name) && std::holds_alternative<std::int64_t>(value))
            overrides.emplace_back(name, std::get<std::int64_t>(value));
    return overrides;
}

models::RegisterCount record_register_count(const kernel::KernelSpec& spec,
                                            const runtime::KernelRecord& record) {
    models::RegisterCount count;
    if (record.registers_per_thread) {
        count.per_thread = *record.registers_per_thread;
        count.source = models::RegisterSource::measurement_record;
    } else if (spec.registers_per_thread) {
        count.per_thread = *spec.registers_per_thread;
        count.source = models::RegisterSource::kernel_file;
    }
    return count;
}

std::vector<std::string> kernel_file_mismatches(const kernel::KernelSpec& spec,
                                                const std::string& kernel_path,
                                                const std::vector<runtime::LoadedRecord>& records) {
    std::vector<std::string> warnings;
    const std::string sha = sha256_file_hex(kernel_path);
    for (const auto& record : records)
        if (!record.measurement.kernel.file_sha256.empty() &&
            record.measurement.kernel.file_sha256 != sha &&
            record.measurement.kernel.name == spec.name)
            warnings.push_back(record.path +
                               " was recorded from a kernel file with another SHA-256 than " +
                               kernel_path);
    return warnings;
}

} // namespace kerncast::validate
