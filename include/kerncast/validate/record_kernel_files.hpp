// Which kernel files a command that replays measurement records reads (fit-volumes,
// calibrate, mwp-fit): the files given, every *.yaml / *.yml of a --kernels directory, or else
// the kernel files the records name.
#pragma once

#include "kerncast/runtime/measurement_records.hpp"

#include <string>
#include <vector>

namespace kerncast::validate {

// `given` followed by the sorted *.yaml / *.yml files of `kernels_directory` (when not empty;
// an input Error when it is not a directory or holds none). When both give nothing: the
// kernel files the records name in /kernel/file, as given or relative to the record's
// directory, where they exist (sorted, each once); a usage Error when none does.
std::vector<std::string> record_kernel_files(const std::vector<std::string>& given,
                                             const std::string& kernels_directory,
                                             const std::vector<runtime::LoadedRecord>& records);

} // namespace kerncast::validate
