// Reading kernel files (YAML; docs/kernel-format.md). Every problem is an input Error that
// names file:line:column and shows the offending line with a caret; errors inside a
// statement or subscript point into the string.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"

#include <cstddef>
#include <string>

namespace kerncast::kernel {

KernelSpec load_kernel_file(const std::string& path);

// The largest kernel file read or parsed: a hand-written or generated kernel is a few KiB
// (the largest example is under 4 KiB); a larger text is refused before parsing, whose
// memory grows with the text (docs/kernel-format.md).
inline constexpr std::size_t kernel_file_limit_bytes = std::size_t{1} << 20;

// Parses YAML text; `file_name` is used in messages only.
KernelSpec parse_kernel_text(const std::string& text, const std::string& file_name);

} // namespace kerncast::kernel
