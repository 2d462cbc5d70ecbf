// Reading kernel files (YAML; docs/kernel-format.md). Every problem is an input Error that
// names file:line:column and shows the offending line with a caret; errors inside a
// statement or subscript point into the string.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"

#include <string>

namespace kerncast::kernel {

KernelSpec load_kernel_file(const std::string& path);

// Parses YAML text; `file_name` is used in messages only.
KernelSpec parse_kernel_text(const std::string& text, const std::string& file_name);

} // namespace kerncast::kernel
