// A measurement record bound to a kernel file: whether the record is of the file's kernel, its
// parameters as -D overrides, the registers its prediction assumes, and records made from
// another version of the file. Every model that predicts recorded configurations uses it
// (validate, fit-volumes, calibrate, mwp-fit).
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/models/occupancy/register_count.hpp"
#include "kerncast/runtime/measurement.hpp"
#include "kerncast/runtime/measurement_records.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::validate {

// Whether a record is of this kernel file: its name is the spec's name, or the generated
// kernel's symbol (the name made a C identifier, with or without the "kc_" prefix).
bool record_is_of(const kernel::KernelSpec& spec, const runtime::KernelRecord& record);

// The record's integer parameters that the kernel file declares, as -D overrides.
std::vector<std::pair<std::string, std::int64_t>>
record_parameter_overrides(const kernel::KernelSpec& spec, const runtime::KernelRecord& record);

// Registers per thread for the record's prediction: the record's registers_per_thread (as
// measured), else the kernel file's, else unknown (registers do not limit occupancy).
models::RegisterCount record_register_count(const kernel::KernelSpec& spec,
                                            const runtime::KernelRecord& record);

// Records of `spec` (by kernel name) that were recorded from a kernel file with another SHA-256
// than the file at `kernel_path`: their predictions may be of a different kernel. One warning
// per record: "<record path> was recorded from a kernel file with another SHA-256 than
// <kernel_path>". Records without a file_sha256 are not compared.
std::vector<std::string> kernel_file_mismatches(const kernel::KernelSpec& spec,
                                                const std::string& kernel_path,
                                                const std::vector<runtime::LoadedRecord>& records);

} // namespace kerncast::validate
